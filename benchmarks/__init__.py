"""Benchmarks reported as ratios against a floor measured in the same run."""
