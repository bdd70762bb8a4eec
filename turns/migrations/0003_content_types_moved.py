from django.db import migrations

# The content types of the moved models follow them, so what names them by content type (the
# admin's history of changes, a permission given to a staff account) names the same model under
# its new label. A database migrated from empty has none yet (they are created after the
# migrations run): nothing to move.
MOVED = [("orders", "turn"), ("orders", "turnevent"), ("kingdoms", "diceroll")]


def _move(apps, schema_editor, *, forwards):
    ContentType = apps.get_model("contenttypes", "ContentType")
    types = ContentType.objects.db_manager(schema_editor.connection.alias)
    for old_app, model in MOVED:
        source, target = (old_app, "turns") if forwards else ("turns", old_app)
        if not types.filter(app_label=target, model=model).exists():
            types.filter(app_label=source, model=model).update(app_label=target)
    ContentType.objects.clear_cache()


def content_types_forwards(apps, schema_editor):
    _move(apps, schema_editor, forwards=True)


def content_types_backwards(apps, schema_editor):
    _move(apps, schema_editor, forwards=False)


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('kingdoms', '0024_dice_rolls_moved_to_turns'),
        ('orders', '0010_turn_models_moved_to_turns'),
        ('turns', '0002_turn_cycle_records_moved'),
    ]

    operations = [
        migrations.RunPython(content_types_forwards, content_types_backwards),
    ]
