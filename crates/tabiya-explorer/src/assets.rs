//! The page, its script, its styles and the piece images, embedded in the binary so that the
//! explorer works offline. The pieces are Colin M. L. Burnett's set (GPL-2.0-or-later), as
//! chessground 9.2.1 ships them.

/// A file of the page: its path on the server, its type, its bytes.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

macro_rules! piece {
    ($name:literal) => {
        Asset {
            path: concat!("/pieces/", $name, ".svg"),
            content_type: "image/svg+xml",
            bytes: include_bytes!(concat!("../assets/pieces/", $name, ".svg")),
        }
    };
}

const HTML: &str = "text/html; charset=utf-8";

static ASSETS: &[Asset] = &[
    Asset { path: "/", content_type: HTML, bytes: include_bytes!("../assets/index.html") },
    Asset { path: "/index.html", content_type: HTML, bytes: include_bytes!("../assets/index.html") },
    Asset {
        path: "/explorer.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/explorer.js"),
    },
    Asset { path: "/othello", content_type: HTML, bytes: include_bytes!("../assets/othello.html") },
    Asset {
        path: "/othello.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/othello.js"),
    },
    Asset {
        path: "/explorer.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("../assets/explorer.css"),
    },
    piece!("wP"),
    piece!("wN"),
    piece!("wB"),
    piece!("wR"),
    piece!("wQ"),
    piece!("wK"),
    piece!("bP"),
    piece!("bN"),
    piece!("bB"),
    piece!("bR"),
    piece!("bQ"),
    piece!("bK"),
];

/// The type and bytes of the embedded file served at `path`.
pub fn find(path: &str) -> Option<(&'static str, &'static [u8])> {
    ASSETS.iter().find(|a| a.path == path).map(|a| (a.content_type, a.bytes))
}
