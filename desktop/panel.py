"""The confirmation panel: each question for the person (an action policy holds or blocks,
an agent that wants to pair), one at a time, answered only by the person's own input."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent, QPixmap
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from tabsteward.bridge.errors import TabstewardError
from tabsteward.bridge.hub.approvals import Answer, Approvals, Question
from tabsteward.bridge.policy.categories import Category
from tabsteward.bridge.records import peer
from tabsteward.bridge.shown import shown

log = logging.getLogger("tabsteward.desktop")

ARM_SECONDS = 1.0  # a new question's allow buttons wait this long: a click or key meant for
# something else, or a question swapped in under the pointer, never allows anything
BY = "person (tray)"
HEADLINE = {"ask": "wants to", "blocked": "was blocked from"}


def _plain(text: str) -> QLabel:
    label = QLabel(shown(text, lines=True))
    label.setTextFormat(Qt.TextFormat.PlainText)  # page text is never markup
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _why(q: Question) -> str:
    labels = []
    for name in q.categories:
        try:
            labels.append(Category(name).label)
        except ValueError:
            labels.append(name)
    lines = [shown(r) for r in q.reasons]
    if labels:
        lines.append("risk: " + ", ".join(labels))
    return "\n".join(lines) or "policy asks about every action of this kind"


class Panel(QWidget):
    """Shows the oldest open question; later ones queue behind it. It never takes focus
    on its own, and only its buttons and keys answer."""

    answered = Signal(str, bool)  # question id, approved

    def __init__(self, approvals: Approvals, *, arm_seconds: float = ARM_SECONDS,
                 on_error: Callable[[str], None] | None = None) -> None:
        super().__init__(None, Qt.WindowType.Tool | Qt.WindowType.WindowStaysOnTopHint)
        self.approvals = approvals
        self.arm_seconds = arm_seconds
        self.on_error = on_error
        self.queue: list[Question] = []
        self.current: Question | None = None
        self._armed_for: str | None = None  # the question whose allow buttons are armed
        self.setObjectName("panel")
        self.setWindowTitle("Tabsteward — waiting for you")
        # new questions queue up without taking the keyboard from what the person types
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setMinimumWidth(460)
        self._build()
        self._tick = QTimer(self)
        self._tick.setInterval(1000)
        self._tick.timeout.connect(self._count_down)
        self._arm = QTimer(self)
        self._arm.setSingleShot(True)
        self._arm.setTimerType(Qt.TimerType.PreciseTimer)
        self._arm.timeout.connect(self._armed)

    # -- layout --
    def _build(self) -> None:
        self.headline = _plain("")
        self.headline.setObjectName("headline")
        font = self.headline.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self.headline.setFont(font)
        self.fields: dict[str, QLabel] = {}
        form = QFormLayout()
        for key, label in (("agent", "Agent"), ("profile", "Profile"), ("site", "Site"),
                           ("action", "Action"), ("target", "Target"), ("why", "Why")):
            value = _plain("")
            value.setObjectName(key)
            self.fields[key] = value
            form.addRow(label, value)
        self.picture = QLabel()
        self.picture.setObjectName("picture")
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.countdown = QProgressBar()
        self.countdown.setObjectName("countdown")
        self.countdown.setTextVisible(True)
        self.queued = QLabel("")
        self.queued.setObjectName("queued")
        self.status = _plain("")
        self.status.setObjectName("status")
        self.allow_once = self._button("allow_once", "Allow once", lambda: self._answer(True))
        self.allow_always = self._button("allow_always", "Allow always",
                                         lambda: self._answer(True, always=True))
        self.deny = self._button("deny", "Deny", lambda: self._answer(False))
        buttons = QHBoxLayout()
        buttons.addWidget(self.queued)
        buttons.addStretch(1)
        for b in (self.deny, self.allow_once, self.allow_always):
            buttons.addWidget(b)
        box = QVBoxLayout(self)
        box.addWidget(self.headline)
        box.addLayout(form)
        box.addWidget(self.picture)
        box.addWidget(self.countdown)
        box.addWidget(self.status)
        box.addLayout(buttons)

    def _button(self, name: str, text: str, slot: Callable[[], None]) -> QPushButton:
        b = QPushButton(text)
        b.setObjectName(name)
        b.setAutoDefault(False)  # Enter never presses a button here
        b.setDefault(False)
        b.clicked.connect(slot)
        return b

    # -- the approvals' listener --
    def __call__(self, event: str, q: Question, answer: Answer | None) -> None:
        if event == "asked":
            self.add(q)
        else:
            self.remove(q.id)

    def add(self, q: Question) -> None:
        """Queue a question; show it when nothing else is shown (without taking focus)."""
        if any(x.id == q.id for x in self.queue):
            return
        self.queue.append(q)
        if self.current is None:
            self._show_next()
        else:
            self._update_queued()

    def remove(self, qid: str) -> None:
        """A question closed (answered anywhere, timed out, withdrawn): it disappears."""
        self.queue = [q for q in self.queue if q.id != qid]
        if self.current is not None and self.current.id == qid:
            self.current = None
            self._show_next()
        else:
            self._update_queued()

    def _show_next(self) -> None:
        self._tick.stop()
        self._arm.stop()
        self.current = self.queue[0] if self.queue else None
        if self.current is None:
            self.hide()
            return
        self._fill(self.current)
        self._set_armed(False)
        self._arm.start(int(self.arm_seconds * 1000))
        self._tick.start()
        self._count_down()
        self._update_queued()
        if not self.isVisible():
            self.show()  # shown, not activated: the keyboard stays where the person types

    def _fill(self, q: Question) -> None:
        # every string here came from an agent, a page or a process: shown inert
        agent, summary = shown(q.agent), shown(q.summary)
        if q.kind == "pair":
            self.headline.setText(f"A process asks to pair and {summary}; it says it is "
                                  f"'{agent}'")
        elif q.kind == "person":
            self.headline.setText(f"A terminal asks to {summary}")
        else:
            self.headline.setText(f"{agent} {HEADLINE[q.kind]} {summary}")
        verified = peer.describe(q.process)
        self.fields["agent"].setText(f"says it is '{agent}'; verified: {verified}"
                                     if q.kind in ("pair", "person") else agent)
        self.fields["profile"].setText(shown(q.profile) or "—")
        self.fields["site"].setText(shown(q.site) or "—")
        self.fields["action"].setText(summary)
        self.fields["target"].setText(shown(q.target) or "—")
        self.fields["why"].setText(
            _why(q) if q.kind not in ("pair", "person") else
            "an agent the hub does not know wants to use your browser" if q.kind == "pair"
            else "a command in a terminal asks for the person's own tools; allow it only if "
                 "you just ran it")
        pixmap = QPixmap()
        if q.image and pixmap.loadFromData(q.image, "PNG"):
            self.picture.setPixmap(pixmap)
            self.picture.show()
        else:
            self.picture.clear()
            self.picture.hide()
        pair = q.kind == "pair"
        self.allow_once.setText("Pair" if pair else "Allow" if q.kind == "person"
                                else "Allow once")
        self.allow_always.setVisible(q.kind not in ("pair", "person"))
        risk = ", ".join(q.categories) or "this action"
        self.allow_always.setText(f"Always allow {risk} on {shown(q.site)}" if q.site
                                  else f"Always allow {risk}")
        self.deny.setText("Keep blocked" if q.kind == "blocked" else "Deny")
        self.status.setText("")

    def _update_queued(self) -> None:
        more = len(self.queue) - 1
        self.queued.setText(f"{more} more waiting" if more > 0 else "")

    def _count_down(self) -> None:
        q = self.current
        if q is None:
            return
        total = max(1.0, q.timeout)
        left = max(0.0, q.expires - time.time())
        self.countdown.setRange(0, int(total))
        self.countdown.setValue(int(left))
        verb = "stays blocked" if q.kind == "blocked" else "denied"
        self.countdown.setFormat(f"{verb} in {left:.0f} s unless you answer")
        if left <= 0 and q.kind == "blocked":
            self.approvals.open()  # an expired offer closes itself, and leaves the panel

    def _set_armed(self, armed: bool) -> None:
        self._armed_for = self.current.id if armed and self.current is not None else None
        self.allow_once.setEnabled(armed)
        self.allow_always.setEnabled(armed)

    def _armed(self) -> None:
        self._set_armed(True)

    # -- the person's answer --
    def _answer(self, approve: bool, always: bool = False) -> None:
        q = self.current
        if q is None:
            return
        if approve and self._armed_for != q.id:
            return  # armed by its timer only; never by a click that came before it
        try:
            # the person's own click, in this process: no code needed, and wrong codes typed
            # elsewhere never lock it
            self.approvals.settle(q, approve, always=always, by=BY)
        except TabstewardError as err:
            # the question closed either way; say what went wrong to the person
            log.warning("answering %s: %s", q.id, err.message)
            self.status.setText(err.message)
            if self.on_error is not None:
                self.on_error(err.message)
        self.answered.emit(q.id, approve)
        if self.current is q:  # not closed by the answer (it was already gone)
            self.remove(q.id)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key == Qt.Key.Key_Escape:
            self._answer(False)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()  # Enter never allows: the person clicks, or presses Esc
        else:
            super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        # closing the window leaves the questions open (the tray still shows them)
        event.ignore()
        self.hide()
