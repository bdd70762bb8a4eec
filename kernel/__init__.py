"""The pure kernel every app builds on: the dice, events and their codes, and ledger reasons.

Pure Python: no Django, Celery or REST framework module may be imported from here (import-linter
checks it in `make test`, and tests/kernel/test_purity.py checks what a fresh interpreter loads).
"""
