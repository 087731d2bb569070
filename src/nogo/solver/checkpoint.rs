//! Checkpoints: the table's costly entries written to a file, so that a
//! long solve can be stopped and started again from what it proved.
//!
//! An entry is an exact result keyed by the stones themselves, true of
//! that position in any solve on a board of the same shape, so a file is
//! tied to the board's width and height only. A solve that loads one finds
//! the proved subtrees in its table and skips them. The file holds the
//! entries whose subtree took at least `2^MIN_WORK_LOG` nodes (the cheap
//! ones are quicker to prove again than to read), each as the two stone
//! sets (two little-endian `u64` each), the value and log2 of the work.
//! It is written to a temporary file beside it and renamed, so a stop in
//! the middle of a write leaves the previous checkpoint whole.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::board::{BitBoard, PointSet};
use super::table::Table;

/// The file's first bytes: the format and its version.
const MAGIC: &[u8; 8] = b"KSNGTAB1";

/// Entries of subtrees below `2^MIN_WORK_LOG` nodes are not written.
const MIN_WORK_LOG: u8 = 8;

/// Bytes of one entry: two stone sets of two words, value, work.
const ENTRY_BYTES: usize = 34;

/// Writes `table`'s costly entries for a `board` to `path`; returns how
/// many it wrote.
pub(super) fn save<S: PointSet>(
    table: &Table<S>,
    board: &BitBoard<S>,
    path: &Path,
) -> std::io::Result<u64> {
    let temporary = temporary_path(path);
    let mut out = BufWriter::new(File::create(&temporary)?);
    out.write_all(MAGIC)?;
    out.write_all(&board.width.to_le_bytes())?;
    out.write_all(&(board.area / board.width).to_le_bytes())?;
    let mut written = 0;
    for ((own, other), win, work_log) in table.entries() {
        // A slot read while another thread wrote it fails the key check
        // with near certainty; one that passed it by chance would still
        // have to put stones off the board or on both sides to pass here.
        if work_log < MIN_WORK_LOG || !board.holds(own, other) {
            continue;
        }
        let mut record = [0u8; ENTRY_BYTES];
        for (k, word) in own.to_u64s().into_iter().chain(other.to_u64s()).enumerate() {
            record[8 * k..8 * k + 8].copy_from_slice(&word.to_le_bytes());
        }
        record[32] = u8::from(win);
        record[33] = work_log;
        out.write_all(&record)?;
        written += 1;
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&temporary, path)?;
    Ok(written)
}

/// Loads the entries of a checkpoint at `path` into `table`; returns how
/// many. A file made for another board shape, or not a checkpoint, is an
/// error (and the table, holding part of it, is to be dropped).
pub(super) fn load<S: PointSet>(
    table: &Table<S>,
    board: &BitBoard<S>,
    path: &Path,
) -> Result<u64, String> {
    let name = path.display();
    let file = File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let mut input = BufReader::new(file);
    let mut header = [0u8; 16];
    input
        .read_exact(&mut header)
        .map_err(|_| format!("{name} is not a solver checkpoint"))?;
    if &header[..8] != MAGIC {
        return Err(format!("{name} is not a solver checkpoint"));
    }
    let word =
        |k: usize| u32::from_le_bytes([header[k], header[k + 1], header[k + 2], header[k + 3]]);
    let (width, height) = (word(8), word(12));
    if width != board.width || width * height != board.area {
        return Err(format!(
            "{name} is a checkpoint of a {width}x{height} board, not of this one"
        ));
    }
    // Entries go into the table as they are read; a file found bad on
    // the way fails the solve, which then drops the table.
    let mut entries = 0;
    let mut record = [0u8; ENTRY_BYTES];
    loop {
        match input.read_exact(&mut record) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(format!("cannot read {name}: {e}")),
        }
        let word = |k: usize| {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(&record[8 * k..8 * k + 8]);
            u64::from_le_bytes(bytes)
        };
        let own = S::from_u64s([word(0), word(1)]);
        let other = S::from_u64s([word(2), word(3)]);
        if !board.holds(own, other) || record[32] > 1 || record[33] == 0 {
            return Err(format!("{name} holds an entry that is not a position"));
        }
        table.store_logged((own, other), record[32] == 1, record[33]);
        entries += 1;
    }
    Ok(entries)
}

fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".writing");
    path.with_file_name(name)
}
