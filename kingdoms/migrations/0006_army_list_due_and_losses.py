"""Losses are counted once (issue 13): `Army.pending_losses` goes.

It was only ever added to, and subtracted from the list's points again after the player had taken
the models off the list, so the engine cannot tell a loss still to be removed from one already
removed. The list is what counts from now on: an army with a list keeps it as it stands (taking the
points again would count them twice). An army whose list was never entered keeps its losses, as the
points its list, when entered, leaves out (`losses_before_list`). `list_due` is new: an army raised
or upgraded counts at the points paid for it until its list is entered.
"""

from django.db import migrations, models


def keep_only_losses_of_armies_without_a_list(apps, schema_editor):
    Army = apps.get_model("kingdoms", "Army")
    Army.objects.filter(units__isnull=False).exclude(losses_before_list=0).update(losses_before_list=0)


class Migration(migrations.Migration):
    dependencies = [
        ("kingdoms", "0005_army_fortified_in"),
    ]

    operations = [
        migrations.RenameField(model_name="army", old_name="pending_losses", new_name="losses_before_list"),
        migrations.AlterField(
            model_name="army",
            name="losses_before_list",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Points lost (foraging, guerrilla) while its list was due: the list, when entered, "
                "leaves them out.",
            ),
        ),
        migrations.AddField(
            model_name="army",
            name="list_due",
            field=models.BooleanField(
                default=False,
                help_text="Raised or upgraded and its list not entered since: it counts at the points paid for it.",
            ),
        ),
        migrations.RunPython(keep_only_losses_of_armies_without_a_list, migrations.RunPython.noop),
    ]
