"""Development tooling that lives outside the foldctl package (fuzzing)."""
