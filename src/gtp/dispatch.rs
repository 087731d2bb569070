//! Dispatch: one input line to one reply. The line is parsed, its
//! command looked up in the one table ([`super::commands::COMMANDS`]), the
//! handler run, and its result written as GTP's `=`/`?` reply; after a
//! genmove with pondering on, the engine ponders until the next line.

use std::io::{self, Write};

use super::commands::find_command;
use super::engine::{Call, Engine, Response};
use super::error::GtpError;
use super::parse::parse_command_line;
use crate::player::Watcher;

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    Quit,
}

impl Engine {
    /// Answers one raw input line on `out` (nothing for blank and comment
    /// lines). Errors are only output errors: the controller is gone.
    pub fn execute_line(
        &mut self,
        raw: &str,
        out: &mut dyn Write,
        watcher: &mut dyn Watcher,
    ) -> io::Result<Control> {
        let command = match parse_command_line(raw) {
            None => return Ok(Control::Continue),
            Some(Err(error)) => {
                write_failure(out, error.id(), &GtpError::from(error))?;
                return Ok(Control::Continue);
            }
            Some(Ok(command)) => command,
        };
        let Some(spec) = find_command(&command.name) else {
            log::debug!("unknown command {:?}", command.name);
            write_failure(out, command.id, &GtpError::UnknownCommand)?;
            return Ok(Control::Continue);
        };
        let mut call = Call {
            id: command.id,
            args: &command.args,
            out,
            watcher,
        };
        let result = (spec.handler)(self, &mut call);
        match result {
            Ok(Response::Text(text)) => write_success(out, command.id, &text)?,
            Ok(Response::Streamed) => {}
            Err(GtpError::Output(error)) => return Err(error),
            Err(error) => {
                log::debug!("{} {:?}: {error}", command.name, command.args);
                write_failure(out, command.id, &error)?;
            }
        }
        // The reply is out: the opponent thinks, and so do we.
        self.ponder(watcher);
        Ok(if spec.name == "quit" {
            Control::Quit
        } else {
            Control::Continue
        })
    }
}

/// Writes `=id text` and the blank line that ends every reply.
pub(crate) fn write_success(out: &mut dyn Write, id: Option<u32>, text: &str) -> io::Result<()> {
    let mut reply = match id {
        Some(id) => format!("={id}"),
        None => "=".to_string(),
    };
    append_body(&mut reply, text);
    out.write_all(reply.as_bytes())?;
    out.flush()
}

/// Writes `?id message` and the blank line.
pub(crate) fn write_failure(
    out: &mut dyn Write,
    id: Option<u32>,
    error: &GtpError,
) -> io::Result<()> {
    let mut reply = match id {
        Some(id) => format!("?{id}"),
        None => "?".to_string(),
    };
    append_body(&mut reply, &error.to_string());
    out.write_all(reply.as_bytes())?;
    out.flush()
}

/// Appends a reply body and the closing blank line. The status is always
/// followed by a space, as GNU Go writes it: GoGui takes a reply's text from
/// after the first space of the whole reply, so `=` then a line feed would
/// lose the first word of the next line. Blank lines inside the body would
/// end the reply early for the controller, so they are dropped.
fn append_body(reply: &mut String, text: &str) {
    let mut lines = text.split('\n').map(|line| line.trim_end_matches('\r'));
    reply.push(' ');
    reply.push_str(lines.next().unwrap_or(""));
    for line in lines.filter(|line| !line.trim().is_empty()) {
        reply.push('\n');
        reply.push_str(line);
    }
    reply.push_str("\n\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reply_bodies_never_hold_blank_lines() {
        let mut reply = String::from("=");
        append_body(&mut reply, "\na\n\nb\n");
        assert_eq!(reply, "= \na\nb\n\n");
        let mut empty = String::from("=3");
        append_body(&mut empty, "");
        assert_eq!(empty, "=3 \n\n");
    }
}
