from django.urls import path

from . import tokens, views

urlpatterns = [
    path("", views.home, name="home"),
    path("account/name/", views.account_name, name="account-name"),
    path("account/orders-address/", views.account_orders_address, name="account-orders-address"),
    path("account/api-token/", tokens.api_token_page, name="api-token"),
    path("campaigns/new/", views.campaign_create, name="campaign-create"),
    path("campaigns/<int:campaign_id>/map.svg", views.campaign_map_svg, name="campaign-map"),
    path("campaigns/<int:campaign_id>/invite/", views.campaign_invite, name="campaign-invite"),
    path("campaigns/<int:campaign_id>/roll-homes/", views.campaign_roll_homes, name="campaign-roll-homes"),
    path("campaigns/<int:campaign_id>/pick/", views.campaign_pick, name="campaign-pick"),
    path("kingdoms/<int:kingdom_id>/", views.kingdom_detail, name="kingdom"),
    path("kingdoms/<int:kingdom_id>/co-players/", views.kingdom_co_player_add, name="kingdom-co-player-add"),
    path(
        "kingdoms/<int:kingdom_id>/co-players/<int:user_id>/remove/",
        views.kingdom_co_player_remove,
        name="kingdom-co-player-remove",
    ),
    path("kingdoms/<int:kingdom_id>/tomb-raiders/", views.tomb_raiders_edit, name="kingdom-tomb-raiders"),
    path("characters/<int:character_id>/ability/", views.character_choose_ability, name="character-choose-ability"),
    path("armies/<int:army_id>/", views.army_page, name="army"),
    path("armies/<int:army_id>/experience/", views.army_experience_adjust, name="army-experience-adjust"),
    path("armies/<int:army_id>/edit/", views.army_edit, name="army-edit"),
    path("armies/<int:army_id>/list/check/", views.army_list_check, name="army-list-check"),
]
