"""4-5. Write Orders and Executing Orders: the orders made legal (`normalise`), then executed in
the rulebook's order (`run`): Raze, Move (with Forced March, Don't Pass in the Night, Occupied
Province and Multiple Moves into Battle), the contacts and claims the moves make, Fortify, Recover;
an army given no order, or an order it can no longer carry out, holds. Pure Python.
"""

PHASE = "orders"  # the events' phase
