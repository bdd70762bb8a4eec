"""The reports' API shapes that are not the orders' (orders.serializers holds the turn's results)."""

from __future__ import annotations

from rest_framework import serializers

LEARNED_FIELDS = ("turn", "mission", "label", "target", "target_name", "text", "info")


class LearnedSerializer(serializers.Serializer):
    """One delivery of a Reconnaissance: the mission, the kingdom spied on, and the information (`info`,
    as the INTELLIGENCE event holds it)."""

    turn = serializers.IntegerField(allow_null=True)
    mission = serializers.CharField()
    label = serializers.CharField()
    target = serializers.IntegerField(allow_null=True)
    target_name = serializers.CharField()
    text = serializers.CharField()
    info = serializers.DictField()


class PendingEffectSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    mission = serializers.CharField()
    label = serializers.CharField()
    target = serializers.IntegerField()
    target_name = serializers.CharField()
    target_army = serializers.CharField()
    earned_turn = serializers.IntegerField()
    expires_turn = serializers.IntegerField(allow_null=True)
    when = serializers.CharField()


class IntelligenceSerializer(serializers.Serializer):
    kingdom = serializers.IntegerField()
    learned = LearnedSerializer(many=True)
    pending = PendingEffectSerializer(many=True)
