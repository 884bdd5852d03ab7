"""Site patterns and the allow/deny lists of a profile: pure URL reading, the way Chrome reads."""

from __future__ import annotations

import functools
import ipaddress
import re
import string
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote

from ..errors import UsageError

Verdict = Literal["deny", "allowed", "outside"]
IP = ipaddress.IPv4Address | ipaddress.IPv6Address

WEB = frozenset({"http", "https"})
SPECIAL = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}  # host-bearing schemes
INNER = frozenset({"blob", "filesystem"})  # URLs that carry the origin that made them
CHROME_SCHEMES = frozenset({"chrome", "chrome-extension", "chrome-untrusted", "chrome-search",
                            "devtools", "view-source"})
WORDS = ("localhost", "private", "file:", "data:", "blob:", "about:", "chrome:")

_LOOPBACK = tuple(ipaddress.ip_network(n) for n in ("127.0.0.0/8", "0.0.0.0/8", "::1/128",
                                                     "::/128"))
_PRIVATE = tuple(ipaddress.ip_network(n) for n in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "100.64.0.0/10",
    "fc00::/7", "fe80::/10", "fec0::/10"))
_PRIVATE_SUFFIXES = ("local", "internal", "lan", "home.arpa", "intranet")
_SCHEME = re.compile(r"([a-zA-Z][a-zA-Z0-9+.\-]*):")
_FORBIDDEN_HOST = re.compile(r"[\x00-\x20#%/:<>?@\[\\\]^|\x7f]")
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")


@dataclass(frozen=True)
class Url:
    """A URL as Chrome would load it: scheme, normalised host and port, clean path."""

    scheme: str                # lower-case, without the colon
    host: str = ""             # lower-case ASCII (IDNA), IPv4 dotted, IPv6 without brackets
    port: int | None = None    # None when absent or the scheme's default
    path: str = ""             # "/"-rooted and dot-free for host-bearing schemes
    inner: Url | None = None   # blob:/filesystem: the URL of the origin that made it

    @property
    def ip(self) -> IP | None:
        """The host as an address (an IPv4-mapped IPv6 address as its IPv4 one)."""
        if not self.host or not (self.host[0].isdigit() or ":" in self.host):
            return None
        try:
            addr = ipaddress.ip_address(self.host)
        except ValueError:
            return None
        if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
            return addr.ipv4_mapped
        return addr

    @property
    def effective_port(self) -> int | None:
        return self.port if self.port is not None else SPECIAL.get(self.scheme)

    @property
    def host_display(self) -> str:
        return f"[{self.host}]" if ":" in self.host else self.host


# -- reading URLs --

@functools.lru_cache(maxsize=512)  # every action's policy reads the same few URLs again
def parse_url(url: str) -> Url | None:
    """Read an absolute URL the way Chrome's parser would; None when Chrome would refuse it."""
    text = url.strip(_C0_SPACE).translate(_TAB_NEWLINE)
    m = _SCHEME.match(text)
    if m is None:
        return None
    scheme, rest = m.group(1).lower(), text[m.end():]
    if scheme in SPECIAL:
        return _parse_special(scheme, rest)
    if scheme == "file":
        return _parse_file(rest)
    if scheme in INNER:
        nested = rest.lower().startswith(tuple(f"{i}:" for i in INNER))  # blob:blob:…
        inner = None if nested else parse_url(rest)
        return Url(scheme, path=rest, inner=inner if inner and inner.scheme in SPECIAL else None)
    if rest.startswith("//"):
        authority, _, tail = rest[2:].partition("/")
        return Url(scheme, host=authority.lower(), path="/" + tail)
    return Url(scheme, path=rest)


_TAB_NEWLINE = str.maketrans("", "", "\t\n\r")
_C0_SPACE = "".join(chr(c) for c in range(0x21))  # stripped from both ends, as Chrome does


def _parse_special(scheme: str, rest: str) -> Url | None:
    rest = rest.replace("\\", "/").lstrip("/")
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, tail = rest[:end], rest[end:]
    hostport = authority.rpartition("@")[2]
    if hostport.startswith("["):
        close = hostport.find("]")
        if close < 0:
            return None
        host_text, port_text = hostport[:close + 1], hostport[close + 1:]
        if port_text and not port_text.startswith(":"):
            return None
        port_text = port_text[1:]
    else:
        host_text, _, port_text = hostport.partition(":")
    host = normalise_host(host_text)
    port = _port(port_text)
    if host is None or port == -1:
        return None
    if port == SPECIAL[scheme]:
        port = None
    path = tail.split("?", 1)[0].split("#", 1)[0]
    return Url(scheme, host=host, port=port, path=_clean_path(path))


def _parse_file(rest: str) -> Url:
    rest = rest.replace("\\", "/")
    host = ""
    if rest.startswith("//"):
        authority, _, tail = rest[2:].partition("/")
        host, rest = (normalise_host(authority) or "") if authority else "", "/" + tail
    return Url("file", host=host, path=_clean_path(rest.split("?", 1)[0].split("#", 1)[0]))


def _port(text: str) -> int | None:
    """None for no port, -1 for a port Chrome refuses."""
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 5 or int(text) > 65535:
        return -1
    return int(text)


def _clean_path(path: str) -> str:
    """Resolve . and .. (also written %2e) and decode escaped unreserved characters."""
    segments = path.split("/")[1:] if path.startswith("/") else path.split("/")
    out: list[str] = []
    for i, segment in enumerate(segments):
        last = i == len(segments) - 1
        dots = segment.lower().replace("%2e", ".")
        if dots in (".", ".."):
            if dots == ".." and out:
                out.pop()
            if last:
                out.append("")
            continue
        out.append(segment)
    return _ESCAPE.sub(_unescape_unreserved, "/" + "/".join(out))


def _unescape_unreserved(m: re.Match[str]) -> str:
    char = chr(int(m.group(1), 16))
    return char if char in _UNRESERVED else m.group(0)


def normalise_host(text: str) -> str | None:
    """Lower-case ASCII host (IDNA), IPv4 in any form Chrome takes as dotted, IPv6 compressed,
    without a trailing dot; None when Chrome would refuse it."""
    if text.startswith("[") and text.endswith("]"):
        try:
            return ipaddress.IPv6Address(text[1:-1]).compressed
        except ValueError:
            return None
    try:
        host = (unquote(text, errors="strict") if "%" in text else text).lower()
        if not host.isascii():
            host = host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return None
    host = host.removesuffix(".")
    if not host or _FORBIDDEN_HOST.search(host):
        return None
    labels = host.split(".")
    if _number(labels[-1]) is not None:
        return _ipv4(labels)
    return host


def _number(part: str) -> int | None:
    """One IPv4 part as Chrome reads it: 0x hex, leading-zero octal, or decimal."""
    if not part or not part.isascii() or "_" in part:  # int() would take 1_000
        return None
    try:
        if part[:2].lower() == "0x":
            return int(part[2:] or "0", 16)
        if len(part) > 1 and part[0] == "0":
            return int(part[1:], 8)
        return int(part, 10) if part.isdigit() else None
    except ValueError:
        return None


def _ipv4(labels: list[str]) -> str | None:
    numbers = [_number(label) for label in labels]
    if len(labels) > 4 or any(n is None for n in numbers):
        return None
    values = [n for n in numbers if n is not None]
    if any(n > 255 for n in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        return None
    address = values[-1] + sum(n * 256 ** (3 - i) for i, n in enumerate(values[:-1]))
    return str(ipaddress.IPv4Address(address))


def site_of(url: str) -> str:
    """The site grants are kept for and people are shown: scheme://host[:port] for the web,
    `file:`, `data:`, `about:` and the like otherwise; "" for a URL Chrome would refuse."""
    u = parse_url(url)
    return _site(u) if u is not None else ""


def _site(u: Url) -> str:
    if u.scheme in SPECIAL:
        port = f":{u.port}" if u.port is not None else ""
        return f"{u.scheme}://{u.host_display}{port}"
    if u.scheme in INNER:
        return f"{u.scheme}:" + (_site(u.inner) if u.inner is not None else "")
    if u.scheme in CHROME_SCHEMES and u.host:
        return f"{u.scheme}://{u.host}"
    return f"{u.scheme}:"


def is_local(u: Url) -> bool:
    """localhost and its subdomains, loopback addresses and 0.0.0.0 (which reaches this
    machine too)."""
    ip = u.ip
    if ip is not None:
        return any(ip in net for net in _LOOPBACK)
    return u.host == "localhost" or u.host.endswith(".localhost")


def is_private(u: Url) -> bool:
    """Addresses of private networks, and names that only a private network resolves."""
    ip = u.ip
    if ip is not None:
        return any(ip in net for net in _PRIVATE)
    if not u.host or u.host == "localhost" or u.host.endswith(".localhost"):
        return False
    if "." not in u.host:  # a single-label name reaches an intranet host
        return True
    return any(u.host == s or u.host.endswith("." + s) for s in _PRIVATE_SUFFIXES)


# -- patterns --

@dataclass(frozen=True)
class Pattern:
    """One entry of allow_sites or deny_sites, parsed."""

    text: str
    kind: Literal["word", "any", "host", "subdomains", "ip"]
    word: str = ""             # kind "word": one of WORDS
    scheme: str = ""           # "" for http or https
    host: str = ""
    port: int | None = None    # None for any port
    path: str = ""             # "" for any path
    path_prefix: bool = False  # path ended with "*": a plain prefix, not a whole segment

    def __str__(self) -> str:
        return self.text


def parse_pattern(text: str) -> Pattern:
    """Read one site pattern; UsageError names the pattern and what is wrong with it."""
    raw = text.strip()
    lowered = raw.lower()
    if lowered in WORDS:
        return Pattern(raw, "word", word=lowered)
    if lowered.rstrip(":/") in ("file", "data", "blob", "about", "chrome"):
        word = lowered.rstrip(":/") + ":"
        raise _bad(text, f"write {word!r} to mean every {word} URL")
    if not raw:
        raise _bad(text, "it is empty")
    if raw == "*":
        return Pattern(raw, "any")
    scheme, rest = _pattern_scheme(text, raw)
    hostport, slash, path = rest.partition("/")
    host_text, port = _pattern_port(text, hostport)
    kind, host = _pattern_host(text, host_text)
    path_text, prefix = _pattern_path(text, slash + path)
    return Pattern(raw, kind, scheme=scheme, host=host, port=port, path=path_text,
                   path_prefix=prefix)


def _bad(text: str, why: str) -> UsageError:
    return UsageError(f"the site pattern {text!r} is not valid: {why}. Use `*`, a host such "
                      "as example.com or *.example.com (optionally with https://, a port or a "
                      "path ending in *), or one of " + ", ".join(WORDS))


def _pattern_scheme(text: str, raw: str) -> tuple[str, str]:
    if "://" not in raw:
        return "", raw
    scheme, _, rest = raw.partition("://")
    scheme = scheme.lower()
    if scheme not in ("http", "https", "*"):
        raise _bad(text, f"the scheme {scheme!r} is not http or https")
    return ("" if scheme == "*" else scheme), rest


def _pattern_port(text: str, hostport: str) -> tuple[str, int | None]:
    if hostport.startswith("["):
        host, bracket, after = hostport.partition("]")
        if not bracket:
            raise _bad(text, f"the host {hostport!r} lacks its closing ']'")
        host += "]"
        port_text = after[1:] if after.startswith(":") else after
        if after and not after.startswith(":"):
            raise _bad(text, "unexpected text after the IPv6 address")
    else:
        host, _, port_text = hostport.partition(":")
    if port_text in ("", "*"):
        return host, None
    port = _port(port_text)
    if port is None or port <= 0:
        raise _bad(text, f"{port_text!r} is not a port number")
    return host, port


def _pattern_host(text: str, host_text: str) -> tuple[Literal["any", "host", "subdomains",
                                                              "ip"], str]:
    if host_text == "*":
        return "any", ""
    subdomains = host_text.startswith("*.")
    bare = host_text[2:] if subdomains else host_text
    if "*" in bare:
        raise _bad(text, "`*` may only stand alone or begin the host as `*.`")
    host = normalise_host(bare)
    if host is None:
        raise _bad(text, f"{bare!r} is not a host name or address")
    if Url("http", host=host).ip is not None:
        if subdomains:
            raise _bad(text, "an address has no subdomains")
        return "ip", host
    return ("subdomains" if subdomains else "host"), host


def _pattern_path(text: str, path: str) -> tuple[str, bool]:
    if path in ("", "/", "/*"):
        return "", False
    prefix = path.endswith("*")
    body = path[:-1] if prefix else path
    if "*" in body:
        raise _bad(text, "`*` may only end the path")
    return _clean_path(body), prefix


def matches(pattern: Pattern | str, url: str | Url) -> bool:
    """Whether the URL is one the pattern names; a blob: URL also matches by its origin."""
    p = parse_pattern(pattern) if isinstance(pattern, str) else pattern
    u = parse_url(url) if isinstance(url, str) else url
    if u is None:
        return False
    if u.scheme in INNER:
        if p.kind == "word" and p.word == f"{u.scheme}:":
            return True
        return u.inner is not None and matches(p, u.inner)
    if p.kind == "word":
        return _matches_word(p.word, u)
    return _matches_web(p, u)


def _matches_word(word: str, u: Url) -> bool:
    if word == "localhost":
        return u.scheme in WEB and is_local(u)
    if word == "private":
        return u.scheme in WEB and is_private(u)
    if word == "chrome:":  # about:settings and the like open chrome://settings
        return u.scheme in CHROME_SCHEMES or (u.scheme == "about" and not _is_about_page(u))
    return f"{u.scheme}:" == word


def _matches_web(p: Pattern, u: Url) -> bool:
    if u.scheme not in WEB or (p.scheme and p.scheme != u.scheme):
        return False
    if p.port is not None and p.port != u.effective_port:
        return False
    if p.kind == "host" and not (u.host == p.host or u.host.endswith("." + p.host)):
        return False
    if p.kind == "subdomains" and not u.host.endswith("." + p.host):
        return False
    if p.kind == "ip" and u.host != p.host:
        return False
    return _matches_path(p, u.path or "/")


def _matches_path(p: Pattern, path: str) -> bool:
    if not p.path:
        return True
    if p.path_prefix:
        return path.startswith(p.path)
    base = p.path.rstrip("/")
    return path == base or path.startswith(base + "/")


def is_blank(url: str) -> bool:
    """about:blank, where every new tab starts (a query or fragment does not change it)."""
    u = parse_url(url)
    return u is not None and u.scheme == "about" and _about_name(u) == "blank"


def _about_name(u: Url) -> str:
    return u.path.split("?", 1)[0].split("#", 1)[0].lower()


def _is_about_page(u: Url) -> bool:
    """about:blank and about:srcdoc are documents; other about: URLs are browser pages."""
    return _about_name(u) in ("blank", "srcdoc")


@dataclass(frozen=True)
class SiteList:
    """A profile's sites: deny wins, then allow; everything else is outside the allowed set."""

    allow: tuple[Pattern, ...] = ()
    deny: tuple[Pattern, ...] = ()

    @classmethod
    def of(cls, allow: Iterable[str], deny: Iterable[str]) -> SiteList:
        return cls(tuple(parse_pattern(t) for t in allow), tuple(parse_pattern(t) for t in deny))

    def verdict(self, url: str) -> Verdict:
        if is_blank(url):
            return "allowed"
        u = parse_url(url)
        if u is None:
            return "outside"
        if any(matches(p, u) for p in self.deny):
            return "deny"
        if any(matches(p, u) for p in self.allow):
            return "allowed"
        return "outside"
