"""Distilled test suites of fuzzed databases for semantic (execution) evaluation of text-to-SQL (Zhong et al. 2020)."""
