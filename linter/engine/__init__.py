"""The rule engine: registry, reviews, findings, selection and scoring."""
