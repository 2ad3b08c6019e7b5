"""Your blocks: list, block, unblock."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.apis.query import Api, PageQueryIn, query_params
from matches.apis.schema import errors, page_of, paginated, valid

from ..selectors import blocks as selectors
from ..services import blocks


class BlockIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class BlockOut(serializers.Serializer):
    username = serializers.CharField()
    created_at = serializers.DateTimeField()


class BlockListApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: page_of(BlockOut), **errors("invalid_filter", "page_not_found", auth=True)},
                   summary="The players you blocked")
    @query_params(PageQueryIn)
    def get(self, request: Request) -> Response:
        return paginated(request, self, selectors.blocks_of(request.user), selectors.block_payload, BlockOut)

    @extend_schema(request=BlockIn, responses={201: BlockOut, **errors("player_not_found", "cannot_block_self",
                                                                       body=True, auth=True)},
                   summary="Block a player: no challenges, chat or notifications from them reach you")
    def post(self, request: Request) -> Response:
        block = blocks.block_create(blocker=request.user, username=valid(BlockIn, request)["username"])
        return Response(BlockOut(selectors.block_payload(block)).data, status=status.HTTP_201_CREATED)


class BlockDetailApi(Api):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={204: None, **errors("player_not_found", "not_blocked", auth=True)},
                   summary="Unblock a player")
    def delete(self, request: Request, username: str) -> Response:
        blocks.block_delete(blocker=request.user, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)
