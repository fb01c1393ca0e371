"""Tests for Tools/openapi/client-document.

Run from the repository root:  python3 -m unittest Tools/test_client_document.py
"""

import importlib.machinery
import importlib.util
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "openapi", "client-document")


def _load_script():
    loader = importlib.machinery.SourceFileLoader("client_document", SCRIPT)
    spec = importlib.util.spec_from_loader("client_document", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


cd = _load_script()

NOT_NULL = {"not": {"type": "null"}}


def document(schema, get=False):
    operations = {"post": {"operationId": "op_post" if get else "op", "requestBody": {"content": {"application/json": {"schema": schema}}}}}
    if get:
        operations["get"] = {"operationId": "op_get"}
    return {"paths": {"/op": operations}}


def body(doc):
    return doc["paths"]["/op"]["post"]["requestBody"]["content"]["application/json"]["schema"]


class ClientDocumentTests(unittest.TestCase):
    def test_an_alias_requirement_beside_properties_is_dropped_and_the_properties_kept(self):
        schema = {
            "type": "object",
            "properties": {"weight_kg": {"type": "number"}, "weight": {"type": "number"}},
            "allOf": [{"anyOf": [{"properties": {"weight_kg": NOT_NULL}, "required": ["weight_kg"]}, {"required": ["weight"]}]}],
        }
        out = body(cd.client_document(document(schema)))
        self.assertNotIn("allOf", out)
        self.assertEqual(set(out["properties"]), {"weight_kg", "weight"})

    def test_a_conditional_requirement_is_a_constraint_too(self):
        schema = {
            "type": "object",
            "properties": {"provider": {"type": "string"}, "password": {"type": "string"}},
            "allOf": [{"if": {"properties": {"provider": {"const": "password"}}}, "then": {"required": ["password"]}}],
        }
        self.assertNotIn("allOf", body(cd.client_document(document(schema))))

    def test_a_real_union_is_kept(self):
        union = {"oneOf": [{"type": "object", "properties": {"op": {"const": "a"}}}, {"type": "object", "properties": {"op": {"const": "b"}}}]}
        schema = {"type": "object", "properties": {"ops": {"type": "array", "items": union}}}
        self.assertEqual(body(cd.client_document(document(schema)))["properties"]["ops"]["items"], union)

    def test_a_union_beside_properties_that_defines_a_field_is_kept(self):
        schema = {"type": "object", "properties": {"a": {"type": "string"}}, "anyOf": [{"properties": {"b": {"type": "string"}}}]}
        self.assertIn("anyOf", body(cd.client_document(document(schema))))

    def test_a_nullable_reference_is_the_reference(self):
        schema = {"type": "object", "properties": {"time_zone": {"anyOf": [{"$ref": "#/components/schemas/TimeZone"}, {"type": "null"}]}}}
        out = body(cd.client_document(document(schema)))
        self.assertEqual(out["properties"]["time_zone"], {"$ref": "#/components/schemas/TimeZone"})

    def test_the_get_twin_goes_and_the_post_takes_the_function_name(self):
        out = cd.client_document(document({"type": "object", "properties": {}}, get=True))
        self.assertEqual(list(out["paths"]["/op"]), ["post"])
        self.assertEqual(out["paths"]["/op"]["post"]["operationId"], "op")

    def test_the_source_is_not_changed(self):
        doc = document({"type": "object", "properties": {"a": {"type": "string"}}, "allOf": [{"required": ["a"]}]}, get=True)
        before = cd.text(doc)
        cd.client_document(doc)
        self.assertEqual(cd.text(doc), before)


if __name__ == "__main__":
    unittest.main()
