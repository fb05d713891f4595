"""The scenarios: one module each, declaring `SCENARIO = Scenario(...)` (see `..scenario`).
The runner imports every module here, so a new file is a new scenario."""
