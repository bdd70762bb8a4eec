"""The battles rules core: scenario generator, results, recovery, injuries, aftermath (pure Python)."""
