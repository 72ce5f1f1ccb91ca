#!/usr/bin/python3
"""A window titled "drag source" that offers FILE (as text/uri-list, what file managers offer) when it is dragged.

The drag-and-drop window test starts it beside the app and drags from it with xdotool, so a real X11 drag (XDND)
between two processes reaches the app's drop target. Needs PyGObject with GTK 4 (python3-gi, gir1.2-gtk-4.0).
Usage: Tools/drag-source.py FILE
"""
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, Gio, GLib, Gtk  # noqa: E402

uri = Gio.File.new_for_path(sys.argv[1]).get_uri()


def activate(app):
    window = Gtk.ApplicationWindow(application=app, title="drag source")
    window.set_default_size(240, 160)
    label = Gtk.Label(label="drag me")
    source = Gtk.DragSource(actions=Gdk.DragAction.COPY)
    source.connect("prepare", lambda *_: Gdk.ContentProvider.new_for_bytes(
        "text/uri-list", GLib.Bytes.new((uri + "\r\n").encode())))
    # The drag ended (dropped or refused): say so on stdout for the test's log.
    source.connect("drag-end", lambda _s, _d, deleted: print("drag ended", flush=True))
    label.add_controller(source)
    window.set_child(label)
    window.present()


app = Gtk.Application(application_id=None, flags=Gio.ApplicationFlags.NON_UNIQUE)
app.connect("activate", activate)
app.run([])
