from dataclasses import dataclass
from typing import Sequence, TypeVar

T = TypeVar("T")


@dataclass
class Page:
    items: list
    page: int
    pages: int


def paginate(items: Sequence[T], page: int, per_page: int = 20) -> Page:
    if per_page <= 0:
        raise ValueError("per_page must be positive")
    # Round up: 50 items at 20 a page are 3 pages, not 2.
    pages = max(1, -(-len(items) // per_page))
    page = min(max(page, 1), pages)
    start = (page - 1) * per_page
    return Page(items=list(items[start : start + per_page]), page=page, pages=pages)
