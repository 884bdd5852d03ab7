"""One link's verdict as `doctor` prints it: shared by doctor and its checks of setup's
parts (setup_doctor), so that neither imports the other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Status = Literal["ok", "warn", "fail"]


@dataclass(frozen=True)
class Check:
    """One link's verdict: `what` names it; `why` and `fix` explain a warning or failure."""

    status: Status
    what: str
    why: str = ""
    fix: str = ""

    def line(self) -> str:
        if self.status == "ok":
            return f"ok   {self.what}"
        text = f"{'FAIL' if self.status == 'fail' else 'warn'} {self.what}"
        text += f": {self.why}" if self.why else ""
        return text + (f"; fix: {self.fix}" if self.fix else "")
