"""The schema mirror: the code-side tables that the Alembic migrations must equal (R20)."""

from __future__ import annotations

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)

key_sessions = Table(
    "key_sessions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # Only a digest of the key is kept, so a copy of the database grants no access.
    Column("key_digest", String(64), nullable=False),
    Column("account", String(64), nullable=False),
    Column("workspace", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("key_digest"),
)

agent_delivery_credentials = Table(
    "agent_delivery_credentials",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account", String(64), nullable=False),
    Column(
        "key_session_id",
        Integer,
        ForeignKey("key_sessions.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("workspace", String(64), nullable=False),
    Column("conversation", String(128), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    # R17: pointer metadata only, never note text; NULL when the latest send had none.
    Column("ambient_path", Text, nullable=True),
    Column("ambient_view", String(16), nullable=True),
    Column("ambient_meta", Text, nullable=True),
    UniqueConstraint("key_session_id", "conversation"),
    Index(None, "account", "conversation"),
)

agent_conversation_messages = Table(
    "agent_conversation_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account", String(64), nullable=False),
    Column("workspace", String(64), nullable=False),
    Column("conversation", String(128), nullable=False),
    Column("role", String(16), nullable=False),  # "user" or "assistant"
    Column("text", Text, nullable=False),
    # R34: the names and arguments of the tools a reply's turn called, as JSON; never
    # their results, so no note text is kept by a conversation.
    Column("tool_calls", Text, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index(None, "account", "workspace", "conversation"),
)

agent_conversation_proposals = Table(
    "agent_conversation_proposals",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account", String(64), nullable=False),
    Column("workspace", String(64), nullable=False),
    Column("conversation", String(128), nullable=False),
    # The reply that made the proposal (a row of agent_conversation_messages).
    Column("message_id", Integer, nullable=False),
    Column("proposal_id", String(64), nullable=False),
    # R50: that a proposal was made and what became of it, never its text.
    Column("path", Text, nullable=False),
    Column("summary", Text, nullable=False),
    Column("outcome", String(16), nullable=False),  # "pending", "applied", "undone" or "discarded"
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # Named here: the convention's name would pass PostgreSQL's 63-character limit.
    UniqueConstraint(
        "account",
        "workspace",
        "conversation",
        "proposal_id",
        name="uq_agent_conversation_proposals_proposal",
    ),
)

inline_requests = Table(
    "inline_requests",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("request_id", String(64), nullable=False),
    Column("account", String(64), nullable=False),
    Column("workspace", String(64), nullable=False),
    # R73: what was asked and how much was sent, never the note text that was sent.
    Column("instruction", Text, nullable=False),
    Column("path", Text, nullable=False),
    Column("first_line", Integer, nullable=False),
    Column("last_line", Integer, nullable=False),
    Column("bytes", Integer, nullable=False),
    Column("assistant_kind", String(16), nullable=False),
    Column("assistant_name", Text, nullable=False),
    Column("outcome", String(16), nullable=False),  # pending, accepted, rejected or failed
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("request_id"),
    Index(None, "account", "workspace"),
)
