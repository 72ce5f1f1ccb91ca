import InkCore

/// The `.oekaki` schema and the steps that build or upgrade it. Version N of a file is the result of steps 1…N;
/// opening an older file for writing runs the missing steps in one transaction.
enum Schema {
    /// "OEKI": tells an Oekaki document from any other SQLite database.
    static let applicationID: Int64 = 0x4F45_4B49
    /// The format version this build writes (`PRAGMA user_version`).
    static let currentVersion = 15
    /// The first format with pages (before it, one page in `document`, every stroke on it).
    static let pagesVersion = 5
    /// The first format with stroke transforms (moved, resized, rotated selections).
    static let transformVersion = 6
    /// The first format whose strokes record how they are drawn (`strokes.shape`).
    static let shapesVersion = 7
    /// The first format with a graph margin per page (`pages.margin`).
    static let marginVersion = 8
    /// The first format with text boxes, images and PDF backgrounds (`strokes.content`, `files`, `pages.pdf`).
    static let elementsVersion = 9
    /// Largest embedded file accepted (a PDF or an image), in bytes.
    static let maxFileBytes = 1 << 30
    /// The first format whose board replicas share every page and selection edits (`board_pages`, `board_strokes.look`).
    static let boardPagesVersion = 10
    /// The first format that keeps `strokes.width` in sixteenths of a unit (`WidthUnits`).
    static let widthSixteenthsVersion = 11
    /// The first format with fills, dashes and caps (`strokes.line`, `LineLookCodec`).
    static let lineStyleVersion = 12
    /// The first format with layers (`layers`, `stroke_layers`, layer edits in `history.pages`).
    static let layersVersion = 13
    /// The first format with picture backgrounds (`pages.picture`).
    static let pictureVersion = 14
    /// The first format whose images may carry a LaTeX formula (`ContentCodec`).
    static let formulaVersion = 15

    /// steps[i] turns a version-i database into version i+1.
    static let steps: [String] = [
        // 1: the drawing only — page, background and the strokes that are visible.
        """
        CREATE TABLE document(
            id INTEGER PRIMARY KEY CHECK (id = 1),
            page_width REAL NOT NULL,
            page_height REAL NOT NULL,
            background INTEGER NOT NULL);
        CREATE TABLE strokes(
            id INTEGER PRIMARY KEY,
            tool TEXT NOT NULL,
            rgba INTEGER NOT NULL,
            width REAL NOT NULL,
            points BLOB NOT NULL);
        """,
        // 2: undo history survives reopening. Strokes an edit removed stay in `strokes` with present = 0
        // while some edit still refers to them; edits reference strokes by id, so an edit costs its own size.
        """
        ALTER TABLE strokes ADD COLUMN present INTEGER NOT NULL DEFAULT 1;
        CREATE TABLE edits(
            id INTEGER PRIMARY KEY,
            stack INTEGER NOT NULL,      -- 0 undo, 1 redo
            position INTEGER NOT NULL,   -- order within the stack, top = largest
            kind INTEGER NOT NULL);      -- EditKind
        CREATE UNIQUE INDEX edits_by_position ON edits(stack, position);
        CREATE TABLE edit_strokes(
            edit INTEGER NOT NULL,
            role INTEGER NOT NULL,       -- 0 removed, 1 added
            seq INTEGER NOT NULL,
            stroke INTEGER NOT NULL,
            PRIMARY KEY(edit, role, seq)) WITHOUT ROWID;
        CREATE INDEX edit_strokes_by_stroke ON edit_strokes(stroke);
        """,
        // 3: (a) the history in one small table: an edit is one row keyed by its place, its stroke ids packed in a
        // blob (`EditStrokes`), ~15 bytes an edit where version 2 spent ~54 over four B-trees. No index of which
        // edits name a stroke: the open document counts references in memory. `Schema.upgrade` converts the
        // version-2 rows and drops their tables. (b) Drawing order: `draw_order` is NULL when it is the id (nearly
        // always, one byte); an area-eraser piece stores the order of the stroke it was cut from. Only those are
        // indexed, so reading in drawing order merges the rowid order with that small index.
        """
        CREATE TABLE history(
            stack INTEGER NOT NULL,      -- 0 undo, 1 redo
            position INTEGER NOT NULL,   -- order within the stack, top = largest
            kind INTEGER NOT NULL,       -- EditKind
            strokes BLOB NOT NULL,       -- EditStrokes: removed then added stroke ids
            PRIMARY KEY(stack, position)) WITHOUT ROWID;
        ALTER TABLE strokes ADD COLUMN draw_order INTEGER;
        CREATE INDEX strokes_by_order ON strokes(draw_order) WHERE draw_order IS NOT NULL;
        """,
        // 4: a document can be the replica of a shared board (`InkSync`). `board` names this replica's client id
        // and how far it has applied the board's log; `board_strokes` maps the strokes the board has confirmed
        // to their global id (client, number) with the board's visibility and drawing order; `board_clients`
        // holds the last operation number applied per client (de-duplication). A stroke the board knows stays
        // in `strokes` (present = 0) while hidden, so a later `restore` can bring it back. Empty for other files.
        """
        CREATE TABLE board(
            id INTEGER PRIMARY KEY CHECK (id = 1),
            client INTEGER NOT NULL,
            url TEXT NOT NULL,           -- nats://host:port/BOARD, without credentials
            last_seq INTEGER NOT NULL);
        CREATE TABLE board_strokes(
            stroke INTEGER PRIMARY KEY,  -- strokes.id
            client INTEGER NOT NULL,
            number INTEGER NOT NULL,
            visible INTEGER NOT NULL,
            board_order INTEGER NOT NULL);
        CREATE TABLE board_clients(
            client INTEGER PRIMARY KEY,
            applied INTEGER NOT NULL);
        """,
        // 5: pages (their strokes' index, `strokes_by_page`, comes with a second page: `pageIndex`). A page row has its
        // place (NULL while the page is deleted but an edit may bring it back), its size (NULL: endless) and
        // background; every stroke names its page. Page edits keep what they did to pages in `history.pages`
        // (`PageEditText`). The one page of an older file keeps its size and paper (id 1, the default of
        // `strokes.page`), and `document` is dropped in `Schema.upgrade`.
        """
        CREATE TABLE pages(
            id INTEGER PRIMARY KEY,
            position INTEGER,            -- 0-based place in the document; NULL while deleted
            width REAL,                  -- NULL (with height): endless
            height REAL,
            style TEXT NOT NULL,         -- Background.Style
            paper INTEGER NOT NULL,      -- 0xRRGGBBAA
            line INTEGER NOT NULL,       -- 0xRRGGBBAA
            spacing REAL NOT NULL);
        ALTER TABLE strokes ADD COLUMN page INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE history ADD COLUMN pages TEXT;
        """,
        // 6: moved, resized and rotated strokes keep their points as drawn: `strokes.transform` places them (NULL
        // for the identity, see `PlacementCodec`), and a history row of kind 8 (transform) keeps the map and the
        // placements before in `placement`, its stroke ids in `strokes` (as added). A move costs bytes per stroke,
        // never a copy of the points.
        """
        ALTER TABLE strokes ADD COLUMN transform BLOB;
        ALTER TABLE history ADD COLUMN placement BLOB;
        """,
        // 7: how a stroke is drawn (DESIGN §8.4). `shape` is NULL for smoothed pen input (every stroke of an older
        // file, and nearly every stroke: one byte), 0 for a polyline drawn as written (an import, a cut shape),
        // and 1…6 for a shape (`ShapeCode`), which is a polyline too.
        """
        ALTER TABLE strokes ADD COLUMN shape INTEGER;
        """,
        // 8: graph paper's margin (Xournal++ notebooks often leave one): blank paper around the squares. Page edits
        // in `history.pages` write it as a seventh format field from this version on (`PageEditText`).
        """
        ALTER TABLE pages ADD COLUMN margin REAL NOT NULL DEFAULT 0;
        """,
        // 9: text boxes, images and PDF pages (DESIGN §8.2). A text box or image is a stroke row whose `content`
        // says what it holds (`ContentCodec`; NULL for ink, so ink costs one byte more), its two points the box's
        // corners. `files` holds the bytes of every image and PDF once per distinct content, named by their
        // SHA-256; `pages.pdf` ("HASH:PAGE") puts a page of one under the paper's ink. Page edits in
        // `history.pages` write the PDF background as an eighth format field (`PageEditText`).
        """
        CREATE TABLE files(
            hash TEXT PRIMARY KEY,       -- lowercase hex SHA-256 of bytes
            bytes BLOB NOT NULL);
        ALTER TABLE strokes ADD COLUMN content BLOB;
        ALTER TABLE pages ADD COLUMN pdf TEXT;
        """,
        // 10: a shared board shares every page and what selections do. `board_pages` maps the pages the board has
        // confirmed to their global id (client, number; 0, 0 is the board's first page) with the board's visibility,
        // key in the page order (`PageKey` digits, 2 bytes each, big-endian) and format (`PageEditText`);
        // `board_strokes.look` is the board's placement, width and colour of a stroke (the stored stroke may hold an
        // edit not yet published): the six numbers of the placement unless it is the identity, the width (IEEE
        // little-endian) and RGBA, then the board order before the last front or back when there is one (8 bytes).
        // A replica from format 9 or before (look NULL, no pages) takes the stored strokes' looks,
        // and its first page is the board's first page.
        """
        CREATE TABLE board_pages(
            page INTEGER PRIMARY KEY,    -- pages.id
            client INTEGER NOT NULL,
            number INTEGER NOT NULL,
            visible INTEGER NOT NULL,
            key BLOB NOT NULL,
            format TEXT NOT NULL);
        ALTER TABLE board_strokes ADD COLUMN look BLOB;
        """,
        // 11: `strokes.width` in sixteenths of a unit. SQLite writes a whole-valued REAL in the bytes of an integer
        // (one for 1…127) but any other in eight, and the fine pen is 1.5 wide: sixteen times it is 24. ×16 and ÷16
        // are exact in binary, so every width reads back bit for bit; a 1.5 stroke's row is 7 bytes smaller.
        """
        UPDATE strokes SET width = width * 16;
        """,
        // 12: Xournal++'s fill, dash pattern and cap style of a stroke (`LineLookCodec`), NULL for solid, unfilled,
        // round-capped ink, so older ink costs nothing and keeps its look.
        """
        ALTER TABLE strokes ADD COLUMN line TEXT;
        """,
        // 13: layers (DESIGN §9). A layer row has its page, its place there (bottom first; NULL while deleted but an
        // edit may bring it back), name, visibility and whether it is a notebook layer (on every page). Only a stroke
        // on another layer than its page's own one (whose id is the page's) has a `stroke_layers` row, so ink of a
        // one-layer page costs nothing more: an older file opens as one "Layer 1" per page. A layer edit (kind 9)
        // keeps its steps in `history.pages` (`LayerEditText`), the items of layers it adds or deletes in
        // `history.strokes`.
        """
        CREATE TABLE layers(
            id INTEGER PRIMARY KEY,
            page INTEGER NOT NULL,       -- pages.id
            position INTEGER,            -- 0-based place in the page, bottom first; NULL while deleted
            name TEXT NOT NULL,
            visible INTEGER NOT NULL,
            every_page INTEGER NOT NULL);
        CREATE TABLE stroke_layers(
            stroke INTEGER PRIMARY KEY,  -- strokes.id
            layer INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO layers(id, page, position, name, visible, every_page) SELECT id, id, 0, 'Layer 1', 1, 0 FROM pages;
        """,
        // 14: a picture stretched over a page (Xournal++'s image background): `pages.picture` is the hex hash of its
        // bytes in `files`, NULL for none. Page edits in `history.pages` write it as a ninth format field.
        """
        ALTER TABLE pages ADD COLUMN picture TEXT;
        """,
        // 15: an image's `strokes.content` may go on with a LaTeX formula's source and its PDF's hash
        // (`ContentCodec`); no table changes, but a build before it would refuse such an item as damaged.
        "-- formulas",
    ]

    /// The index of strokes by page, made when a file gets its second page. A one-page file (a whiteboard, an
    /// endless canvas) never asks for a page's strokes, and the index cost it 9 bytes a stroke: 3 % of a file of
    /// pressure ink. Files from before keep theirs.
    static let pageIndex = "CREATE INDEX IF NOT EXISTS strokes_by_page ON strokes(page)"

    /// Runs steps `version`+1 … current on `db` (0: an empty database). The caller holds a transaction.
    static func upgrade(_ db: SQLiteDatabase, from version: Int) throws {
        for v in version..<currentVersion {
            try db.execute(steps[v])
            if v == 2 {
                try EditStrokes.convertVersion2History(db)
                try db.execute("DROP TABLE edit_strokes; DROP TABLE edits")
            }
            if v == pagesVersion - 1 {
                try db.execute("""
                    INSERT INTO pages(id, position, width, height, style, paper, line, spacing)
                    SELECT 1, 0, page_width, page_height, 'plain', background, \(Background.defaultLine.packed), \(Background.Style.plain.defaultSpacing)
                    FROM document WHERE id = 1;
                    DROP TABLE document;
                    """)
            }
        }
        try db.execute("PRAGMA user_version = \(currentVersion)")
    }

    /// Every table and index any version creates; a file holding anything else is not trusted.
    static let tables: Set<String> = ["document", "strokes", "edits", "edit_strokes", "history",
                                       "board", "board_strokes", "board_clients", "pages", "files",
                                       "board_pages", "layers", "stroke_layers"]
    static let indexes: Set<String> = ["edits_by_position", "edit_strokes_by_stroke", "strokes_by_order", "strokes_by_page"]

    enum Stack: Int64 { case undo = 0, redo = 1 }

    /// `strokes.shape`: how a stroke is drawn and what shape it is.
    enum ShapeCode {
        static let kinds: [ShapeKind] = [.line, .arrow, .triangle, .rectangle, .polygon, .ellipse]
        /// nil (NULL) for smoothed ink.
        static func value(_ s: Stroke) -> Int64? {
            guard s.style.trace == .polyline else { return nil }
            return s.shape.flatMap { kinds.firstIndex(of: $0) }.map { Int64($0 + 1) } ?? 0
        }
        /// The trace and shape a stored value means, or nil when it means nothing.
        static func decode(_ v: Int64?) -> (Trace, ShapeKind?)? {
            guard let v else { return (.smoothed, nil) }
            if v == 0 { return (.polyline, nil) }
            guard v >= 1, v <= Int64(kinds.count) else { return nil }
            return (.polyline, kinds[Int(v - 1)])
        }
    }
    enum Role: Int64 { case removed = 0, added = 1 }
    enum EditKind: Int64 { case add = 0, remove = 1, replace = 2, clear = 3, addPage = 4, deletePage = 5, movePage = 6, setFormat = 7, transform = 8, layers = 9 }

    /// Largest page side we accept, in page units (about 35 m at 72 dpi).
    static let maxPageSide = 100_000.0
    /// Most pages a document may have (a 500-page notebook is large; 100,000 would be a hostile file).
    static let maxPages = 10_000
    /// Largest nominal pen width we accept.
    static let maxStrokeWidth = 10_000.0

    /// `strokes.width` from format 11: sixteenths of a unit (see step 11).
    enum WidthUnits {
        static let perUnit = 16.0
        /// What the writer binds for a width.
        static func stored(_ width: Double) -> Double { width * perUnit }
        /// The column expression that reads a width in units from a file of `version`.
        static func column(version: Int) -> String { version >= widthSixteenthsVersion ? "width * 0.0625" : "width" }
    }
}
