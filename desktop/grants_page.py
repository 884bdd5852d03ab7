"""The Profiles window's tab of remembered grants ("always allow on this site"): listed, and
revoked on the person's click."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from tabsteward.bridge.errors import TabstewardError
from tabsteward.bridge.policy.grants import Grant, Grants

from .profile_form import named


class GrantsPage(QWidget):
    """The grants as a table and a Revoke button; `say` shows what happened in the window's
    status line (error=True for a failure)."""

    def __init__(self, grants: Grants, say: Callable[..., None]) -> None:
        super().__init__()
        self._grants, self._say = grants, say
        self._shown_grants: list[Grant] = []
        self.grants_table = named(QTableWidget(0, 4), "grants_table")
        self.grants_table.setHorizontalHeaderLabels(["Profile", "Site", "Category", "Since"])
        self.grants_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.grants_table.horizontalHeader().setStretchLastSection(True)
        self.grants_table.verticalHeader().setVisible(False)
        self.grants_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grants_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.revoke_button = named(QPushButton("Revoke selected"), "revoke")
        self.revoke_button.clicked.connect(self._revoke_clicked)
        layout = QVBoxLayout(self)
        layout.addWidget(self.grants_table, 1)
        layout.addWidget(self.revoke_button)

    def refresh(self) -> None:
        try:
            grants = self._grants.list()
        except TabstewardError as exc:
            self._say(exc.message, error=True)
            return
        if grants == self._shown_grants:
            return
        self._shown_grants = grants
        self.grants_table.setRowCount(len(grants))
        for row, grant in enumerate(grants):
            category = QTableWidgetItem(grant.category.value)
            category.setToolTip(grant.category.label)
            cells = [QTableWidgetItem(grant.profile), QTableWidgetItem(grant.site), category,
                     QTableWidgetItem(grant.created.astimezone().strftime("%Y-%m-%d %H:%M"))]
            for column, cell in enumerate(cells):
                self.grants_table.setItem(row, column, cell)

    def _revoke_clicked(self) -> None:
        rows = sorted({index.row() for index in self.grants_table.selectedIndexes()})
        chosen = [self._shown_grants[row] for row in rows if row < len(self._shown_grants)]
        if not chosen:
            self._say("Select the grants to revoke first; nothing was revoked")
            return
        try:
            for grant in chosen:
                self._grants.revoke(grant.profile, grant.site, grant.category)
        except TabstewardError as exc:
            self._say(exc.message, error=True)
        else:
            self._say(f"Revoked {len(chosen)} remembered grant{'s' * (len(chosen) != 1)}")
        self.refresh()
