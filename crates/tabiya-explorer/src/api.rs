//! The routes: the embedded page and its files, and the JSON API under `/api/`
//! (README, "The web explorer", documents each shape).

use serde::Serialize;

use crate::assets;
use crate::explorer::Explorer;
use crate::http::{Request, Response};

const JSON: &str = "application/json";

/// The answer to `request`.
pub fn handle(explorer: &Explorer, request: &Request) -> Response {
    if request.method != "GET" && request.method != "HEAD" {
        return Response::error(405, "only GET and HEAD");
    }
    // The page of the sources at hand: an Othello board when they all hold Othello games.
    let path = if request.path == "/" && explorer.is_othello() { "/othello" } else { request.path.as_str() };
    if let Some((content_type, bytes)) = assets::find(path) {
        return Response::ok(content_type, bytes);
    }
    let fen = request.param("fen");
    let play = request.param("play");
    match request.path.as_str() {
        "/api/sources" => json(&explorer.summaries()),
        "/api/othello" => match explorer.explore_othello(play) {
            Ok(answer) => json(&answer),
            Err(e) => Response::error(400, &e),
        },
        "/api/explore" => match explorer.explore(fen, play) {
            Ok(answer) => json(&answer),
            Err(e) => Response::error(400, &e),
        },
        "/api/game" => {
            let (Some(source), Some(game)) = (number(request, "source"), number(request, "game")) else {
                return Response::error(400, "/api/game needs source=N and game=N");
            };
            match explorer.game(source, game) {
                Ok(Some(view)) => json(&view),
                Ok(None) => Response::error(404, &format!("no game {game} in source {source}")),
                Err(e) => Response::error(500, &e.to_string()),
            }
        }
        path => match path.strip_prefix("/api/explorer/").map(str::parse::<usize>) {
            Some(Ok(source)) => match explorer.explore_source(source, fen, play) {
                Ok(Some(answer)) => json(&answer),
                Ok(None) => Response::error(404, &format!("no source {source}")),
                Err(e) => Response::error(400, &e),
            },
            _ => Response::error(404, &format!("nothing at {path}")),
        },
    }
}

fn number(request: &Request, name: &str) -> Option<usize> {
    request.param(name)?.parse().ok()
}

fn json(value: &impl Serialize) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => Response::ok(JSON, body),
        Err(e) => Response::error(500, &e.to_string()),
    }
}
