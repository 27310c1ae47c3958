//! Just enough HTTP/1.1 for a page and its JSON on one machine: `GET` and `HEAD` requests,
//! read with bounds (a request line and headers of at most [`MAX_HEAD`] bytes), answered with
//! a complete body and `Connection: close`. Anything else is answered with an error status,
//! never a panic.

use std::io::{self, BufRead, Read, Write};

/// Bytes of request line plus headers that a request may take.
pub const MAX_HEAD: u64 = 16 << 10;

/// A request: its method, its path and its query parameters, percent-decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `HEAD`, …
    pub method: String,
    /// The path, decoded (`/api/explore`).
    pub path: String,
    /// The query's `name=value` pairs in order, decoded (`+` is a space).
    pub query: Vec<(String, String)>,
}

impl Request {
    /// The first value of the query parameter `name`.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// An answer: a status, the type of its body, the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// `200`, `404`, …
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// A `200` with `body` of `content_type`.
    pub fn ok(content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response { status: 200, content_type, body: body.into() }
    }

    /// An error status with a JSON body `{"error": message}`.
    pub fn error(status: u16, message: &str) -> Response {
        let body = serde_json::json!({ "error": message }).to_string();
        Response { status, content_type: "application/json", body: body.into_bytes() }
    }
}

/// Why a request could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BadRequest {
    /// The connection failed or timed out.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The head is longer than [`MAX_HEAD`].
    #[error("request head longer than {MAX_HEAD} bytes")]
    TooLong,
    /// The request line is not `METHOD TARGET HTTP/x.y`, or not UTF-8.
    #[error("malformed request line")]
    Malformed,
}

/// Reads one request's head (its headers are not needed, and a body is not read).
pub fn read_request(input: impl Read) -> Result<Request, BadRequest> {
    let mut limited = io::BufReader::new(input.take(MAX_HEAD));
    let mut line = Vec::new();
    read_line(&mut limited, &mut line)?;
    let text = std::str::from_utf8(&line).map_err(|_| BadRequest::Malformed)?;
    let mut words = text.split_ascii_whitespace();
    let (Some(method), Some(target), Some(version), None) = (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(BadRequest::Malformed);
    };
    if !version.starts_with("HTTP/") {
        return Err(BadRequest::Malformed);
    }
    // The headers up to the empty line, so that the client has sent all it means to before
    // the answer and the close.
    loop {
        let mut header = Vec::new();
        read_line(&mut limited, &mut header)?;
        if header == b"\r\n" || header == b"\n" {
            break;
        }
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    Ok(Request {
        method: method.to_owned(),
        path: percent_decode(path, false),
        query: query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                (percent_decode(k, true), percent_decode(v, true))
            })
            .collect(),
    })
}

/// Reads a line of the head into `line`: a line cut short is one past [`MAX_HEAD`], or a
/// client that stopped sending.
fn read_line(head: &mut io::BufReader<io::Take<impl Read>>, line: &mut Vec<u8>) -> Result<(), BadRequest> {
    head.read_until(b'\n', line)?;
    match line.ends_with(b"\n") {
        true => Ok(()),
        false if head.get_ref().limit() == 0 => Err(BadRequest::TooLong),
        false => Err(BadRequest::Malformed),
    }
}

/// Writes `response` (its head only for `HEAD`).
pub fn write_response(out: &mut impl Write, response: &Response, head_only: bool) -> io::Result<()> {
    write!(
        out,
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n\
         X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        response.status,
        reason(response.status),
        response.content_type,
        response.body.len()
    )?;
    if !head_only {
        out.write_all(&response.body)?;
    }
    out.flush()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        _ => "Internal Server Error",
    }
}

/// `%XX` escapes decoded (and `+` as a space in a query); an escape that is not two hex
/// digits stays as written; bytes that are not UTF-8 become U+FFFD.
fn percent_decode(text: &str, plus_is_space: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' if plus_is_space => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_get_with_its_query() {
        let request =
            read_request(&b"GET /api/explore?play=e2e4%2Cc7c5&fen=a+b HTTP/1.1\r\nHost: x\r\n\r\n"[..]).unwrap();
        assert_eq!(request.method, "GET");
        assert_eq!(request.path, "/api/explore");
        assert_eq!(request.param("play"), Some("e2e4,c7c5"));
        assert_eq!(request.param("fen"), Some("a b"));
    }

    #[test]
    fn refuses_what_is_not_a_request() {
        for bad in
            [&b""[..], b"GET\r\n\r\n", b"GET / FTP/1\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x", b"\xff / HTTP/1.1\r\n\r\n"]
        {
            assert!(read_request(bad).is_err(), "{bad:?}");
        }
        let long = [b"GET /".as_slice(), &vec![b'a'; MAX_HEAD as usize], b" HTTP/1.1\r\n\r\n"].concat();
        assert!(matches!(read_request(&long[..]), Err(BadRequest::TooLong)));
    }

    #[test]
    fn bad_escapes_stay_as_written() {
        assert_eq!(percent_decode("%zz%4", true), "%zz%4");
        assert_eq!(percent_decode("%", true), "%");
        assert_eq!(percent_decode("%e2%99%94", true), "♔");
        assert_eq!(percent_decode("%ff", true), "\u{fffd}");
    }
}
