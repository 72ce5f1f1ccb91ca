import CGtk

/// Follows the desktop's light/dark preference (GNOME's `color-scheme` setting, which the settings portal mirrors):
/// GTK 4.8 does not read it by itself. Only the chrome turns dark; the page keeps its paper colour and ink its colours.
final class DarkStyle {
    private(set) var isDark = false
    /// Called with the new state whenever the preference changes.
    var onChange: ((Bool) -> Void)?
    private var settings: UnsafeMutablePointer<GSettings>?

    init() {
        let schema = "org.gnome.desktop.interface", key = "color-scheme"
        if let source = g_settings_schema_source_get_default(),
           let found = g_settings_schema_source_lookup(source, schema, 1) {
            let hasKey = g_settings_schema_has_key(found, key) != 0
            g_settings_schema_unref(found)
            if hasKey {
                settings = g_settings_new(schema)
                connectIgnoringArgument(gobject(settings!), "changed::" + key) { [weak self] in self?.update() }
            }
        }
        update()
    }

    private func update() {
        var dark = false
        if let settings, let value = g_settings_get_string(settings, "color-scheme") {
            dark = String(cString: value) == "prefer-dark"
            g_free(value)
        }
        guard let gtk = gtk_settings_get_default() else { return }
        var v = GValue()
        g_value_init(&v, GType(5 << 2)) // G_TYPE_BOOLEAN
        g_value_set_boolean(&v, dark ? 1 : 0)
        g_object_set_property(asGObject(gobject(gtk)), "gtk-application-prefer-dark-theme", &v)
        g_value_unset(&v)
        let changed = dark != isDark
        isDark = dark
        if changed { onChange?(dark) }
    }
}
