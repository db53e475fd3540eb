"""The app's look: one stylesheet for frames, title bars, badges, the chip and the transcript."""

from __future__ import annotations

STYLESHEET = """
QMainWindow, QWidget#centre { background: #eef0f5; }
QFrame#frame {
    background: #ffffff;
    border: 1px solid #d5d9e3;
    border-radius: 8px;
}
QFrame#frame[active="true"] { border: 1px solid #4c6ef5; }
QFrame#frameTitleBar {
    background: #f6f7fb;
    border-bottom: 1px solid #e3e6ee;
    border-top-left-radius: 8px;
    border-top-right-radius: 8px;
}
QFrame#frame[active="true"] QFrame#frameTitleBar { background: #edf1ff; }
QLabel#frameTitle { font-weight: 600; color: #1f2544; }
QFrame#frameTitleBar[thisNote="true"] { border-left: 3px solid #4c6ef5; }
QFrame#frameTitleBar[thisNote="true"] QLabel#frameTitle { color: #3b5bdb; }
QLabel#frameBadge {
    border-radius: 8px; padding: 1px 8px; font-size: 11px;
    background: #e9ecef; color: #495057;
}
QLabel#frameBadge[state="unsaved"] { background: #fff3bf; color: #7a5b00; }
QLabel#frameBadge[state="saving"] { background: #e7f5ff; color: #1864ab; }
QLabel#frameBadge[state="saved"] { background: #ebfbee; color: #2b8a3e; }
QLabel#frameBadge[state="error"] { background: #ffe3e3; color: #c92a2a; }
QLabel#frameBadge[state="new"] { background: #f3f0ff; color: #5f3dc4; }
QToolButton { border: none; border-radius: 5px; padding: 2px 7px; color: #3d4466; }
QToolButton:hover { background: #e3e7f3; }
QToolButton:checked { background: #dbe4ff; color: #364fc7; font-weight: 600; }
QPlainTextEdit#noteEditor, QTextBrowser, QListWidget, QGraphicsView {
    border: none; background: #ffffff; selection-background-color: #c5d3ff;
    selection-color: #111;
}
QPlainTextEdit#noteEditor { padding: 8px 10px; }
QWidget#frameProblem { background: #fff5f5; }
QLabel#browserStatus { color: #6b7190; padding: 6px 10px; font-size: 11px; }
QListWidget#documentList::item { padding: 3px 8px; min-height: 20px; }
QListWidget#todoList::item { padding: 4px 6px; }
QListWidget#todoList::item:selected { background: #f1f4ff; color: #1f2544; }
QListWidget#documentList::item:selected { background: #e5ebff; color: #1f2544; }
QLabel#placeholder { color: #7b8199; padding: 18px; }
QLabel#welcome { color: #6b7190; padding: 6px 4px; }
QWidget#transcript { background: #ffffff; }
QFrame#turn { background: #f8f9fc; border: 1px solid #e6e8f0; border-radius: 8px; }
QLabel#turnMessage { color: #1f2544; font-weight: 600; }
QLabel#turnReply { color: #2f3450; }
QLabel#turnReply[error="true"] { color: #c92a2a; }
QLabel#turnNotice { color: #862e9c; font-style: italic; }
QLabel#turnCaveat {
    color: #7a5b00; background: #fff9db; border-radius: 6px; padding: 4px 6px;
}
QLabel#turnDetails { color: #40465f; font-size: 11px; }
QLabel#turnAssistant { color: #7b8199; font-size: 11px; }
QLabel#turnTools { color: #5f3dc4; font-size: 11px; }
QFrame#turn[kept="true"] { background: #fbfbfd; }
QLabel#transcriptStatus { color: #c92a2a; padding: 4px; }
QLabel#assistantName {
    border-radius: 8px; padding: 1px 8px; font-size: 11px;
    background: #f3f0ff; color: #5f3dc4;
}
QPushButton#stopButton { border-radius: 8px; padding: 7px 14px; color: #c92a2a; }
QWidget#turnDetails QLabel { color: #40465f; font-size: 11px; }
QLabel#detailsLabel { color: #6b7190; }
QPushButton#copyDetails { font-size: 11px; padding: 2px 10px; }
QLabel#contextChip {
    background: #edf2ff; color: #364fc7; border: 1px solid #c5d3ff;
    border-radius: 11px; padding: 3px 10px;
}
QLabel#contextChip[empty="true"] { background: #f1f3f5; color: #6b7190; border-color: #dee2e6; }
QLabel#contextChip[excluded="true"] { background: #f8f9fa; color: #868e96; border-style: dashed; }
QToolButton#excludeToggle { border: 1px solid #d0d5e2; }
QToolButton#excludeToggle:checked { background: #fff0f0; color: #c92a2a; border-color: #ffc9c9; }
QPlainTextEdit#messageInput {
    border: 1px solid #d0d5e2; border-radius: 8px; padding: 4px 6px; background: #ffffff;
}
QPlainTextEdit#messageInput:focus { border-color: #4c6ef5; }
QPushButton#sendButton {
    background: #4c6ef5; color: white; border: none; border-radius: 8px; padding: 7px 16px;
    font-weight: 600;
}
QPushButton#sendButton:hover { background: #4263eb; }
QProgressBar { border: none; background: #e7ebf7; }
QProgressBar::chunk { background: #4c6ef5; }
QPushButton {
    background: #ffffff; color: #2f3450; border: 1px solid #c9cfdd; border-radius: 6px;
    padding: 4px 12px;
}
QPushButton:hover { background: #f1f4ff; border-color: #9fb0e8; }
QPushButton:pressed { background: #e3e9ff; }
QPushButton:focus { border-color: #4c6ef5; }
QPushButton:disabled { background: #f3f4f8; color: #a4aac0; border-color: #e1e4ec; }
QPushButton#sendButton:disabled { background: #b9c5f7; color: #f3f5ff; }
QToolButton#detailsButton { padding: 2px 4px; color: #4c5577; }
QWidget#noNotePage { background: transparent; }
QLabel#noNoteHint { color: #6b7190; font-size: 14px; }
QScrollBar:vertical { background: transparent; width: 10px; margin: 2px; }
QScrollBar::handle:vertical { background: #c9cfdd; border-radius: 3px; min-height: 24px; }
QScrollBar::handle:vertical:hover { background: #a9b1c6; }
QScrollBar:horizontal { background: transparent; height: 10px; margin: 2px; }
QScrollBar::handle:horizontal { background: #c9cfdd; border-radius: 3px; min-width: 24px; }
QScrollBar::add-line, QScrollBar::sub-line { width: 0; height: 0; }
QScrollBar::add-page, QScrollBar::sub-page { background: transparent; }
QFrame#banner { background: #fff9db; border: 1px solid #ffe8a1; border-radius: 8px; }
QFrame#banner[tone="error"] { background: #fff5f5; border-color: #ffc9c9; }
QFrame#banner[tone="info"] { background: #edf2ff; border-color: #c5d3ff; }
QSplitter::handle { background: transparent; }
QToolButton:focus { border: 1px solid #4c6ef5; border-radius: 4px; }
QLineEdit:focus { border: 1px solid #4c6ef5; }
QFrame#findBar { border-bottom: 1px solid #e1e4ec; }
QLabel#findCount { color: #4c5577; }
"""
