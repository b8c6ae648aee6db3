"""Built-in rules: one YAML file per rule (its documentation and parameters) and the checks they name."""
