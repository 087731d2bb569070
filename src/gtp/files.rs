//! loadsgf and printsgf: the game record to and from SGF files.
//!
//! This file decides which files a session may reach and reads them with
//! a size cap; what SGF means for the game is `record::game`'s. loadsgf
//! builds a whole new game on the side and swaps it in only when
//! everything in the file made sense, so a bad file changes nothing.

use super::GtpError;
use std::path::{Component, Path, PathBuf};

use super::engine::{Call, Engine, FileAccess, Response, number_text, parse_komi};
use super::parse;
use crate::record::game::{LoadSettings, game_from_sgf, game_to_sgf};

/// Whether a file is to be read or written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    Write,
}

/// The path a file argument names, if this session may reach it (see
/// [`FileAccess`]).
fn reachable_path(engine: &Engine, name: &str, access: Access) -> Result<PathBuf, GtpError> {
    let path = Path::new(name);
    let root = match &engine.file_access {
        FileAccess::Anywhere => {
            return Ok(match &engine.base_dir {
                Some(base) if path.is_relative() => base.join(path),
                _ => path.to_path_buf(),
            });
        }
        FileAccess::Refused => {
            return Err(GtpError::FileRefused(
                "files are off for this controller (start the daemon with --files-dir DIR)",
            ));
        }
        FileAccess::Within(root) => root,
    };
    if name.is_empty()
        || !path
            .components()
            .all(|part| matches!(part, Component::Normal(_)))
    {
        return Err(outside_error());
    }
    let joined = root.join(path);
    let root = root.canonicalize().map_err(|_| outside_error())?;
    // What the path really names, symbolic links followed: the file itself
    // where it exists, else (a new file to write) its folder.
    let real = match joined.canonicalize() {
        Ok(real) => real,
        Err(_) if access == Access::Write => {
            let parent = joined.parent().ok_or_else(outside_error)?;
            let file_name = joined.file_name().ok_or_else(outside_error)?;
            parent
                .canonicalize()
                .map_err(|_| outside_error())?
                .join(file_name)
        }
        Err(_) => return Err(GtpError::CannotLoadFile),
    };
    if real.starts_with(&root) && real != root {
        Ok(real)
    } else {
        Err(outside_error())
    }
}

/// A path that leads out of the files folder, or names no file in it.
fn outside_error() -> GtpError {
    GtpError::FileRefused("only relative paths inside the files folder")
}

/// The bytes of the regular file at `path`, if it holds at most `cap`
/// bytes. FIFOs, devices and folders are refused before anything is read,
/// and no more than `cap + 1` bytes are ever read (a file may grow).
fn read_capped(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    // Opening a FIFO would wait for a writer: look before opening.
    if !std::fs::metadata(path)?.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    let file = std::fs::File::open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    if metadata.len() > cap {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!("larger than {cap} bytes"),
        ));
    }
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!("larger than {cap} bytes"),
        ));
    }
    Ok(bytes)
}

pub(crate) fn loadsgf(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    let (file, move_number) = match call.args {
        [file] => (file, None),
        [file, number] => {
            let n = parse::parse_usize(number)?;
            if n == 0 {
                return Err(GtpError::Syntax);
            }
            (file, Some(n))
        }
        _ => return Err(GtpError::Syntax),
    };
    let path = reachable_path(engine, file, Access::Read)?;
    let bytes = read_capped(&path, engine.max_sgf_bytes).map_err(|error| {
        log::info!("loadsgf {}: {error}", path.display());
        GtpError::CannotLoadFile
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let settings = LoadSettings {
        kind: engine.game.kind(),
        default_komi: engine.game.komi(),
        parse_komi: |text| parse_komi(text).ok(),
        move_number,
    };
    let game = game_from_sgf(&text, &settings).map_err(|reason| {
        log::info!("loadsgf {}: {reason}", path.display());
        GtpError::CannotLoadFile
    })?;
    engine.game = game;
    Ok(Response::Text(String::new()))
}

pub(crate) fn printsgf(engine: &mut Engine, call: &mut Call) -> Result<Response, GtpError> {
    let file = match call.args {
        [] => None,
        [file] => Some(file),
        _ => return Err(GtpError::Syntax),
    };
    let game = &engine.game;
    let record = game_to_sgf(game, &number_text(game.komi().into()), || {
        engine.result_text()
    });
    match file {
        None => Ok(Response::Text(record.trim_end().to_string())),
        Some(name) => {
            let path = reachable_path(engine, name, Access::Write)?;
            std::fs::write(&path, record).map_err(|error| {
                log::info!("printsgf {}: {error}", path.display());
                GtpError::CannotWriteFile
            })?;
            Ok(Response::Text(String::new()))
        }
    }
}
