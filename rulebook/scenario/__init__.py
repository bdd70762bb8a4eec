"""Appendix: the Scenario Generator, all eight steps, its tables and its Deployment Maps (pure Python)."""
