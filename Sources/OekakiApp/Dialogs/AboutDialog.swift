import CGtk
import Localization

/// Help ▸ About: name, version, licence, website, and who translated the current language.
enum AboutDialog {
    static func show(parent: Widget) {
        let dialog = gtk_about_dialog_new()!
        let about = OpaquePointer(dialog)
        gtk_about_dialog_set_program_name(about, localized("Oekaki"))
        gtk_about_dialog_set_version(about, AppInfo.version)
        gtk_about_dialog_set_comments(about, localized("Draw and write freehand with a pen, your fingers or the mouse."))
        gtk_about_dialog_set_logo_icon_name(about, AppInfo.id)
        gtk_about_dialog_set_license_type(about, GTK_LICENSE_MIT_X11)
        gtk_about_dialog_set_website(about, AppInfo.website)
        gtk_about_dialog_set_website_label(about, localized("Website"))
        gtk_about_dialog_set_copyright(about, localized("© 2026 The Oekaki developers"))
        // TRANSLATORS: your name(s), one per line; it is shown in the About dialog.
        let credits = localized("translator-credits")
        if credits != "translator-credits" { gtk_about_dialog_set_translator_credits(about, credits) }
        gtk_window_set_transient_for(typed(dialog, as: GtkWindow.self), typed(parent, as: GtkWindow.self))
        gtk_window_set_modal(typed(dialog, as: GtkWindow.self), 1)
        gtk_window_present(typed(dialog, as: GtkWindow.self))
    }
}
