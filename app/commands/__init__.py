"""Every menu command declared once, the menus built from the declarations, and Help."""
