"""The oracle is reference code, not tests: pytest collects nothing here (not its doctests)."""

collect_ignore_glob = ["*.py"]
