from dataclasses import dataclass
from typing import Sequence, TypeVar

T = TypeVar("T")


@dataclass
class Page:
    items: list
    page: int
    pages: int


def paginate(items: Sequence[T], page: int, per_page: int = 20) -> Page:
    pages = len(items) // per_page
    start = (page - 1) * per_page
    return Page(items=list(items[start : start + per_page]), page=page, pages=pages)
