"""What is shown: inline suppressions and baselines."""
