"""Diplomacy through the API: the messages the user may read, and sending one."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from briternia.fields import IntegerSerializerField
from kingdoms.selectors import campaign_get

from .models import MESSAGE_MAX, Message
from .selectors import messages_visible, own_kingdoms
from .services.messages import message_from_text, message_send


class MessageSerializer(serializers.ModelSerializer):
    sender = serializers.SerializerMethodField(help_text="The kingdom and the player who wrote it.")
    sender_kingdom = IntegerSerializerField(source="sender_kingdom_id", allow_null=True)
    recipients = serializers.SerializerMethodField(help_text="The kingdoms it was written to, by name.")

    class Meta:
        model = Message
        fields = ["id", "turn_number", "sender", "sender_kingdom", "announcement", "recipients", "text", "sent_at"]

    def get_sender(self, message: Message) -> str:
        return message_from_text(message)

    def get_recipients(self, message: Message) -> list[str]:
        return [k.name for k in message.recipients.all()]


class MessageInput(serializers.Serializer):
    kingdom = IntegerSerializerField(
        required=False, allow_null=True, default=None, help_text="Your kingdom that writes (default: your first)."
    )
    to = serializers.ListField(
        child=IntegerSerializerField(), required=False, default=list, help_text="The kingdoms' ids it is written to."
    )
    text = serializers.CharField(max_length=MESSAGE_MAX * 2, trim_whitespace=False)
    announcement = serializers.BooleanField(
        default=False, help_text="The organizer only: an announcement to every kingdom (`to` is ignored)."
    )


class CampaignMessagesApi(APIView):
    """Diplomacy: the campaign's messages you may read (your kingdom's, sent and received, and the
    organizer's announcements; the organizer reads all), newest first; POST writes one. A third
    kingdom never reads a message; a campaign you are not in: 404. Refused with 400 and the reason:
    an empty or too long message (at most 2,000 characters), no recipient or one that is not another
    kingdom of the campaign with a player, more than 20 messages an hour, an announcement by a player."""

    @extend_schema(responses=MessageSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign = campaign_get(user=request.user, campaign_id=campaign_id)
        return Response(MessageSerializer(messages_visible(user=request.user, campaign=campaign), many=True).data)

    @extend_schema(request=MessageInput, responses={201: MessageSerializer})
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign = campaign_get(user=request.user, campaign_id=campaign_id)
        data = MessageInput(data=request.data)
        data.is_valid(raise_exception=True)
        own = own_kingdoms(user=request.user, campaign=campaign)
        wanted = data.validated_data["kingdom"]
        kingdom = own[0] if own and wanted is None else next((k for k in own if k.pk == wanted), None)
        message = message_send(
            campaign=campaign,
            sender=request.user,
            kingdom=kingdom,
            to=data.validated_data["to"],
            text=data.validated_data["text"],
            announcement=data.validated_data["announcement"],
        )
        return Response(MessageSerializer(message).data, status=status.HTTP_201_CREATED)
