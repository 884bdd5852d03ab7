"""A profile's denied sites as URL regexes for the browser's own request blocking (Chrome's
declarativeNetRequest), so its agents' pages are screened with no debugger attached."""

# Chrome matches a rule against the URL as it canonicalised it: scheme and host lower-case,
# IPv4 dotted, IPv6 bracketed and compressed, default port dropped. The regexes below read
# that form (RE2 syntax, no look-ahead). Policy judges by the URL alone, never by the
# address a name resolves to, so a rule names the same requests policy would stop, with one
# deliberate difference: every IPv4-mapped IPv6 literal ([::ffff:…]) counts as private and
# local (policy reads the IPv4 inside it; a regex cannot, so it blocks them all).
# What a rule cannot do: tell a redirect from a navigation, nor know the person's grants;
# so a profile that stops redirects to sites outside its allow list (one short of `*`) is
# screened by the debugger's Fetch as before (`complete` is False for it).

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from .categories import Category, Rule
from .profiles import Profile
from .sites import CHROME_SCHEMES, SPECIAL, Pattern

READ_ONLY = "read-only"  # the built-in profile whose agents never get the debugger
_NAME = r"[^./?#:@\[\]]"  # one character of a host label
_HOST_CHARS = r"[^/?#:@\[\]]"
_MAPPED = r"\[::ffff:[0-9a-f:.]*\]"  # IPv4-mapped IPv6, however Chrome writes it
_LOCAL_HOSTS = (r"localhost", rf"{_HOST_CHARS}*\.localhost", r"127(\.[0-9]{1,3}){3}",
                r"0(\.[0-9]{1,3}){3}", r"\[::1?\]", _MAPPED)
_PRIVATE_SUFFIXES = ("local", "internal", "lan", "home.arpa", "intranet")
_PRIVATE_NETS = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16",
                 "100.64.0.0/10")
_SINGLE_LABEL = rf"^https?://([^/?#@]*@)?({_NAME}+)\.?(:[0-9]+)?([/?#]|$)"
# a single-label name is private, but for localhost: RE2 has no look-ahead, so an exception
# (a higher-priority allow rule) lets it through, unless the profile denies it otherwise
LOCALHOST = r"^https?://([^/?#@]*@)?localhost\.?(:[0-9]+)?([/?#]|$)"
_PRIVATE_V6 = (r"\[f[cd][0-9a-f]{2}:[0-9a-f:.]*\]", r"\[fe[89ab][0-9a-f]:[0-9a-f:.]*\]",
               r"\[fe[c-f][0-9a-f]:[0-9a-f:.]*\]", _MAPPED)


@dataclass(frozen=True)
class NetGuard:
    """What the browser blocks by itself for one profile's agent tabs."""

    filters: tuple[str, ...] = ()  # document URLs never requested (main frames and frames)
    exceptions: tuple[str, ...] = ()  # URLs the filters name that are not denied
    complete: bool = True          # the filters do all the debugger's Fetch screening would
    never_attach: bool = False     # the profile's agents never get the debugger (read-only)


def net_guard(profile: Profile) -> NetGuard:
    """The browser-side guard of a profile's agent tabs."""
    filters: list[str] = []
    for pattern in profile.sites.deny:
        filters.extend(f for f in filters_of(pattern) if f not in filters)
    any_allowed = any(p.kind == "any" for p in profile.sites.allow)
    complete = any_allowed or profile.rule(Category.NAVIGATE_OFFSITE) is Rule.ALLOW
    exceptions = (LOCALHOST,) if _SINGLE_LABEL in filters and not any(
        p.kind == "any" or (p.kind == "word" and p.word == "localhost") or
        (p.kind == "host" and p.host == "localhost") for p in profile.sites.deny) else ()
    return NetGuard(tuple(filters), exceptions, complete, profile.name == READ_ONLY)


def filters_of(p: Pattern) -> list[str]:
    """The regexes of the canonical URLs one deny pattern names."""
    if p.kind == "any":
        return [r"^(https?|wss?|ftp|file|data|blob):"]
    if p.kind == "word":
        return _word(p.word)
    if p.kind == "ip":
        host = re.escape(p.host) if "." in p.host else rf"\[{re.escape(p.host)}\]"
    elif p.kind == "subdomains":
        host = rf"{_HOST_CHARS}+\.{re.escape(p.host)}"
    else:
        host = rf"({_HOST_CHARS}+\.)?{re.escape(p.host)}"
    return [_web(scheme, host, port, _path(p)) for scheme, port in _ports(p)]


def _ports(p: Pattern) -> list[tuple[str, str]]:
    """(scheme, port regex) pairs: a default port is absent from a canonical URL."""
    schemes = [p.scheme] if p.scheme else ["https?"]
    if p.port is None:
        return [(s, "(:[0-9]+)?") for s in schemes]
    out = []
    for scheme in [p.scheme] if p.scheme else ["http", "https"]:
        out.append((scheme, "" if SPECIAL[scheme] == p.port else f":{p.port}"))
    return out


def _path(p: Pattern) -> str:
    if not p.path:
        return "([/?#]|$)"
    if p.path_prefix:
        return re.escape(p.path)
    return re.escape(p.path.rstrip("/")) + "([/?#]|$)"


def _web(scheme: str, host: str, port: str, tail: str) -> str:
    return rf"^{scheme}://([^/?#@]*@)?({host})\.?{port}{tail}"


def _word(word: str) -> list[str]:
    if word == "localhost":
        return [_web("https?", "|".join(_LOCAL_HOSTS), "(:[0-9]+)?", "([/?#]|$)")]
    if word == "private":
        nets = [_ipv4_net(n) for n in _PRIVATE_NETS]
        suffixes = "|".join(re.escape(s) for s in _PRIVATE_SUFFIXES)
        names = [f"{_NAME}+", rf"({_HOST_CHARS}+\.)?({suffixes})"]
        return [_web("https?", host, "(:[0-9]+)?", "([/?#]|$)")  # small: RE2's memory cap
                for host in (*nets, *_PRIVATE_V6, *names)]
    if word == "chrome:":
        return ["^(" + "|".join(sorted(CHROME_SCHEMES)) + "):"]
    return ["^" + re.escape(word)]


def _octets(low: int, high: int) -> str:
    """The numbers low..high (two or three digits) as a regex, a tens group at a time."""
    tens: dict[int, list[int]] = {}
    for n in range(low, high + 1):
        tens.setdefault(n // 10, []).append(n % 10)
    parts = [f"{t}[{units[0]}-{units[-1]}]" for t, units in tens.items()]
    return "(" + "|".join(parts) + ")"


def _ipv4_net(cidr: str) -> str:
    """An IPv4 network as a regex of dotted addresses (prefixes on an octet boundary, or
    one octet's range spelled out)."""
    net = ipaddress.IPv4Network(cidr)
    octets = str(net.network_address).split(".")
    whole, bits = divmod(net.prefixlen, 8)
    head = [re.escape(o) for o in octets[:whole]]
    if bits:
        low = int(octets[whole])
        high = low + (1 << (8 - bits)) - 1
        head.append(_octets(low, high))
    rest = 4 - len(head)
    return r"\.".join(head) + r"(\.[0-9]{1,3})" + f"{{{rest}}}"
