import Contracts
import Platform

// The hottest answers and fingerprints written by hand with `JSONWriter`, key by key in sorted order, exactly
// as their `Encodable` conformances come out of `JSONCoding.makeEncoder()` (`ActiveWorkoutJSONTests` holds
// each to the encoder's bytes).

extension JSONWriter {
    mutating func value(_ set: WorkoutSet) {
        beginObject()
        key("completed_at")
        date(set.completedAt)
        key("id")
        string(set.id)
        key("reps")
        int(set.reps)
        key("rir")
        int(set.rir)
        key("set_index")
        int(set.setIndex)
        key("target_reps")
        int(set.targetReps)
        key("target_rir")
        int(set.targetRir)
        key("target_weight_kg")
        double(set.targetWeightKg)
        key("weight_kg")
        double(set.weightKg)
        endObject()
    }

    mutating func value(_ totals: WorkoutTotals) {
        beginObject()
        key("reps")
        int(totals.reps)
        key("sets")
        int(totals.sets)
        key("volume")
        double(totals.volume)
        endObject()
    }
}

extension LoggedSet: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("exercise_instance_id")
        writer.string(exerciseInstanceId)
        writer.key("set")
        writer.value(set)
        writer.key("totals")
        writer.value(totals)
        writer.key("version")
        writer.int(version)
        writer.key("workout_id")
        writer.string(workoutId)
        writer.endObject()
    }
}

extension ActiveWorkoutService.LogSetRequest: JSONWritable {
    /// The synthesized `Encodable` form (property names as keys, a nil `rir` left out), as fingerprinted.
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("exerciseInstanceId")
        writer.string(exerciseInstanceId)
        writer.key("reps")
        writer.int(reps)
        if let rir {
            writer.key("rir")
            writer.int(rir)
        }
        writer.key("setId")
        writer.string(setId)
        writer.key("weightKg")
        writer.double(weightKg)
        writer.key("workoutId")
        writer.string(workoutId)
        writer.endObject()
    }
}
