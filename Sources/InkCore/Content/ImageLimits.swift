/// How large a picture may be, in pixels: the one limit for everything that judges a picture's size — the header
/// reader before any decoder runs, and an image item read from a file, a board or the clipboard — so every image
/// item a document keeps is one the decoder draws (never a grey box for being too large).
public enum ImageLimits {
    /// Largest side.
    public static let maxSide = 16384
    /// Most pixels (256 MB decoded, at 4 bytes a pixel).
    public static let maxPixels = 64_000_000

    /// Whether a picture of `width`×`height` pixels is within the limits (and not empty).
    public static func allow(width: Int, height: Int) -> Bool {
        width >= 1 && height >= 1 && width <= maxSide && height <= maxSide && width * height <= maxPixels
    }

    /// The limits in words, for messages.
    public static var wording: String { "up to \(maxSide) pixels a side and \(maxPixels / 1_000_000) megapixels" }
}
