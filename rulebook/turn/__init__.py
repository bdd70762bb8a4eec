"""Turn resolution: the rulebook's Campaign Turn Sequence as pure functions over a TurnState.

Each phase takes the working state (a deep copy made by the pipeline), the dice, and an event
list; it changes the state and appends events. No Django import anywhere in this package.
"""
