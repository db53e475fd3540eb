"""Add the nullable ambient pointer columns to agent delivery credentials (R17, R20).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("agent_delivery_credentials") as batch:
        batch.add_column(sa.Column("ambient_path", sa.Text(), nullable=True))
        batch.add_column(sa.Column("ambient_view", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("ambient_meta", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("agent_delivery_credentials") as batch:
        batch.drop_column("ambient_meta")
        batch.drop_column("ambient_view")
        batch.drop_column("ambient_path")
