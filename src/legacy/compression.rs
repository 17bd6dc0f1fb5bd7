//! Decompression of `llvc1` (gzip or zlib) and `llvc2` (bzip2) files, bounded.

use alloc::vec::Vec;
use std::io::Read;

use super::LegacyError;
use super::signature::{Compression, SIGNATURE, Signature, decompression_limit};

/// Offset of the compressed data: after `llvc` and the digit.
const DATA_OFFSET: usize = 5;

pub(super) fn decompress(input: &[u8], signature: Signature) -> Result<Vec<u8>, LegacyError> {
    let compression = match signature {
        Signature::Uncompressed => return Ok(input.to_vec()),
        Signature::Compressed(c) => c,
    };
    let data = input.get(DATA_OFFSET..).unwrap_or_default();
    let limit = decompression_limit(input.len());
    let module = match compression {
        Compression::Null => data.to_vec(),
        Compression::Gzip => inflate(data, limit)?,
        Compression::Bzip2 => {
            read_bounded(bzip2::read::BzDecoder::new(data), limit, compression, "invalid bzip2 data")?
        }
    };
    let mut out = Vec::with_capacity(SIGNATURE.len() + module.len());
    out.extend_from_slice(&SIGNATURE);
    out.extend_from_slice(&module);
    Ok(out)
}

type Inflate = fn(&[u8], usize) -> Result<Vec<u8>, LegacyError>;

const INFLATE_REASON: &str = "invalid gzip or zlib data";

fn gunzip(data: &[u8], limit: usize) -> Result<Vec<u8>, LegacyError> {
    read_bounded(flate2::read::GzDecoder::new(data), limit, Compression::Gzip, INFLATE_REASON)
}

fn unzlib(data: &[u8], limit: usize) -> Result<Vec<u8>, LegacyError> {
    read_bounded(flate2::read::ZlibDecoder::new(data), limit, Compression::Gzip, INFLATE_REASON)
}

/// Gzip framing first if the data starts with gzip's magic, zlib framing first otherwise
/// (LLVM 1.4's writer called zlib's `deflateInit`), then the other. The first framing's
/// error is the one reported, unless it found too much output.
fn inflate(data: &[u8], limit: usize) -> Result<Vec<u8>, LegacyError> {
    let (first, second): (Inflate, Inflate) =
        if data.starts_with(&[0x1F, 0x8B]) { (gunzip, unzlib) } else { (unzlib, gunzip) };
    match first(data, limit) {
        Ok(out) => Ok(out),
        Err(e @ LegacyError::DecompressedTooLarge { .. }) => Err(e),
        Err(e) => second(data, limit).map_err(|second_error| match second_error {
            too_large @ LegacyError::DecompressedTooLarge { .. } => too_large,
            _ => e,
        }),
    }
}

/// Reads all of `reader`, refusing more than `limit` bytes.
fn read_bounded(
    reader: impl Read,
    limit: usize,
    compression: Compression,
    reason: &'static str,
) -> Result<Vec<u8>, LegacyError> {
    let mut out = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    reader.take(cap).read_to_end(&mut out).map_err(|_| LegacyError::Decompression {
        offset: DATA_OFFSET,
        compression,
        reason,
    })?;
    if out.len() > limit {
        return Err(LegacyError::DecompressedTooLarge { offset: DATA_OFFSET, limit });
    }
    Ok(out)
}
