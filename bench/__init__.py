"""`make bench`: speed measurements written to docs/benchmarks.md, each beside a peer."""
