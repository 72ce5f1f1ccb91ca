import CGtk
import InkCore

/// The keyboard map. Tooltips in the toolbar name the same keys.
enum Shortcuts {
    /// The command for a key press, or nil when the key means nothing to Oekaki.
    static func command(for key: KeyPress) -> Command? {
        let k = Int32(bitPattern: gdk_keyval_to_lower(key.keyval))
        if key.control {
            switch k {
            case GDK_KEY_z: return key.shift ? .redo : .undo
            case GDK_KEY_y: return .redo
            case GDK_KEY_o: return .open
            case GDK_KEY_s: return .saveAs
            case GDK_KEY_e: return .export
            case GDK_KEY_0, GDK_KEY_KP_0: return .zoomFit
            case GDK_KEY_plus, GDK_KEY_equal, GDK_KEY_KP_Add: return .zoomIn
            case GDK_KEY_minus, GDK_KEY_underscore, GDK_KEY_KP_Subtract: return .zoomOut
            default: return nil
            }
        }
        if key.alt { return nil }
        switch k {
        case GDK_KEY_Escape: return .cancelStroke
        case GDK_KEY_p: return .tool(.pen)
        case GDK_KEY_h: return .tool(.highlighter)
        case GDK_KEY_e: return .tool(.strokeEraser)
        case GDK_KEY_a: return .tool(.areaEraser)
        case GDK_KEY_1, GDK_KEY_KP_1: return .size(.fine)
        case GDK_KEY_2, GDK_KEY_KP_2: return .size(.medium)
        case GDK_KEY_3, GDK_KEY_KP_3: return .size(.bold)
        case GDK_KEY_plus, GDK_KEY_KP_Add: return .zoomIn
        case GDK_KEY_minus, GDK_KEY_KP_Subtract: return .zoomOut
        default: return nil
        }
    }

    static func isSpace(_ key: KeyPress) -> Bool { key.keyval == UInt32(GDK_KEY_space) }
}
