"""4. Write Orders: the order sheet, what each entry may do, and the targets it offers (pure Python).

`records` holds the sheet's entries (`SheetEntries`), `problems` what a check finds (`SheetProblemCode`,
`SheetProblem`, `SheetCheck`), `context` what it reads (`SheetContext`, `order_sheet_context`). Each part
of the sheet is checked by the module named after its section of the rulebook: `army_orders` (4. Write
Orders, 5. Executing Orders), `create_upgrade` (3. Create / Upgrade Armies), `supply_depot`,
`garrisons` (Battle for Towns, Cities, and Capitols), `alliances` (Allies), `transfers` (Transfer of
Gold), `land_sales`, `capitol_move` (Loss of the Capitol), `missions` (Using Tomb Raiders); the
purchases with experience are rulebook.experience.purchases'. `check.order_sheet_check` runs them all;
`targets` offers what it accepts.
"""
