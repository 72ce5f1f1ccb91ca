import CGtk
import Foundation
import InkRender
import OekakiApp

/// `OEKAKI_FLOOR=1`: instead of the drawing window, a bare GtkDrawingArea of the same size that takes the
/// same pointer and scroll events and repaints for each. It is the floor `oekaki-bench` subtracts: what GTK,
/// X11 and the compositor cost per event before Oekaki does anything.
enum FloorWindow {
    static var isRequested: Bool { ProcessInfo.processInfo.environment["OEKAKI_FLOOR"] == "1" }

    static func present(_ application: Application, observer: AppObserver) {
        let window = gtk_application_window_new(application)!
        gtk_window_set_default_size(typed(window, as: GtkWindow.self), 1180, 780)
        gtk_window_set_title(typed(window, as: GtkWindow.self), "Oekaki floor")
        let area = gtk_drawing_area_new()!
        gtk_widget_set_hexpand(area, 1)
        gtk_widget_set_vexpand(area, 1)
        setDrawFunction(area) { cr, _, _ in
            observer.measure("frame") {
                cr.setSource(red: 1, green: 1, blue: 1)
                cr.paint()
            }
        }
        let controller = gtk_event_controller_legacy_new()!
        connectLegacyEvent(controller) { event in
            observer.measure("event floor") {
                switch gdk_event_get_event_type(event) {
                case GDK_MOTION_NOTIFY, GDK_BUTTON_PRESS, GDK_BUTTON_RELEASE, GDK_SCROLL:
                    gtk_widget_queue_draw(area)
                    return true
                default:
                    return false
                }
            }
        }
        gtk_widget_add_controller(area, controller)
        gtk_window_set_child(typed(window, as: GtkWindow.self), area)
        gtk_window_present(typed(window, as: GtkWindow.self))
    }
}
