// Every number and date shown or typed goes through here: the user's unit (kg or lb) and the browser's locale.
const LB_PER_KG = 2.2046226218;
let unit = "kg";
let timeZone;

/** Sets the unit (`kg` / `lb`) and time zone used from now on. */
export function configure({ units, zone }) {
  if (units) unit = units;
  if (zone) timeZone = zone;
}

export function units() { return unit; }

/** The profile's `weight_format` as a unit, and back. */
export const unitFromFormat = (format) => (format === "pounds" ? "lb" : "kg");
export const formatFromUnit = (value) => (value === "lb" ? "pounds" : "kilograms");

const number = (digits) => new Intl.NumberFormat(undefined, { maximumFractionDigits: digits });

/** A weight stored in kg, in the user's unit as a number (rounded for typing). */
export function weightValue(kg) {
  if (kg == null || Number.isNaN(Number(kg))) return null;
  const value = unit === "lb" ? Number(kg) * LB_PER_KG : Number(kg);
  return Math.round(value * 10) / 10;
}

/** A weight typed in the user's unit, in kg for the API. */
export function toKg(value) {
  const n = Number(value);
  if (!Number.isFinite(n)) return null;
  return unit === "lb" ? Math.round((n / LB_PER_KG) * 1000) / 1000 : n;
}

/** "100 kg" / "220.5 lb"; "—" when there is none. */
export function weight(kg) {
  const value = weightValue(kg);
  return value == null ? "—" : `${number(1).format(value)} ${unit}`;
}

/** A volume (kg × reps) in the user's unit, without decimals. */
export function volume(kg) {
  if (kg == null) return "—";
  return `${number(0).format(unit === "lb" ? kg * LB_PER_KG : kg)} ${unit}`;
}

export function count(n) { return number(0).format(n || 0); }

export function date(iso) {
  if (!iso) return "";
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone }).format(new Date(iso));
}

export function dateTime(iso) {
  if (!iso) return "";
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(iso));
}

export function shortDate(iso) {
  if (!iso) return "";
  return new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" }).format(new Date(iso));
}

/** "1:05:09" or "4:07" from seconds. */
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** A set as "8 × 100 kg @ RIR 2". */
export function setLine(set) {
  const reps = set.reps ?? set.target_reps;
  const parts = [`${reps ?? "—"} × ${weight(set.weight_kg)}`];
  const rir = set.rir ?? set.target_rir;
  if (rir != null) parts.push(`RIR ${rir}`);
  return parts.join(" · ");
}

/** Epley's estimated one-rep max, in kg. */
export const e1rm = (kg, reps) => (kg && reps ? kg * (1 + reps / 30) : null);
