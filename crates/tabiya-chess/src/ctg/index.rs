//! The .ctb/.cto pair: a dbm-style extendible hash over the key hash (ctg.md 6). The .ctb
//! bitmap says which buckets have been split; the .cto maps every leaf bucket to a data page.

use std::path::Path;

use tabiya_io::{ByteReader, DataError};

const CTB_HEADER_LEN: u16 = 12;
const CTO_HEADER_LEN: u16 = 16;

/// The bucket tree of a book.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BucketTree {
    /// .ctb `lower`: every bucket below it is split (8 × leading 0xFF bytes of the bitmap).
    pub lower: u32,
    /// .ctb `upper`: the bitmap length in bits; no bucket from here on is split.
    pub upper: u32,
    /// Split bitmap, bit c (LSB-first within each byte) set iff bucket c is split.
    pub split: Vec<u8>,
    /// .cto entries: the data page of each leaf bucket, −1 for split and unused buckets.
    pub pages: Vec<i32>,
    /// .cto header word at offset 12, a copy of `lower`.
    pub cto_lower: u32,
}

impl BucketTree {
    /// Parses the .cto and .ctb bytes; errors name the file and the offset.
    pub fn parse(cto: &[u8], cto_path: &Path, ctb: &[u8], ctb_path: &Path) -> Result<BucketTree, DataError> {
        let mut r = ByteReader::new(ctb);
        let in_ctb = |e: DataError| e.in_file(ctb_path);
        expect_u16(&mut r, CTB_HEADER_LEN, ".ctb header size 12").map_err(in_ctb)?;
        expect_u16(&mut r, 1, ".ctb header word 1").map_err(in_ctb)?;
        let lower = r.u32_be(".ctb lower bound").map_err(in_ctb)?;
        let upper = r.u32_be(".ctb upper bound").map_err(in_ctb)?;
        let bitmap_len = upper.div_ceil(8) as usize;
        let split = r.bytes(bitmap_len, "the .ctb split bitmap of upper / 8 bytes").map_err(in_ctb)?.to_vec();

        let mut r = ByteReader::new(cto);
        let in_cto = |e: DataError| e.in_file(cto_path);
        expect_u16(&mut r, CTO_HEADER_LEN, ".cto header size 16").map_err(in_cto)?;
        expect_u16(&mut r, 1, ".cto header word 1").map_err(in_cto)?;
        let count = r.u32_be(".cto entry count").map_err(in_cto)?;
        r.skip(4, ".cto header").map_err(in_cto)?;
        let cto_lower = r.u32_be(".cto copy of the lower bound").map_err(in_cto)?;
        let table = r.bytes(count as usize * 4, "the .cto entries, 4 bytes each").map_err(in_cto)?;
        let pages = table.chunks_exact(4).map(|c| i32::from_be_bytes([c[0], c[1], c[2], c[3]])).collect();
        Ok(BucketTree { lower, upper, split, pages, cto_lower })
    }

    /// Whether bucket `c` has been split into its two children.
    pub fn is_split(&self, bucket: u64) -> bool {
        let byte = usize::try_from(bucket / 8).ok().and_then(|i| self.split.get(i));
        byte.is_some_and(|b| b & (1 << (bucket % 8)) != 0)
    }

    /// The .cto entry of a bucket; −1 beyond the table.
    pub fn page_of(&self, bucket: u64) -> i32 {
        usize::try_from(bucket).ok().and_then(|i| self.pages.get(i)).copied().unwrap_or(-1)
    }

    /// The buckets a hash visits, root first: `(h & n) + n` for n = 0, 1, 3, 7, …, 2^32 − 1.
    pub fn walk(hash: u32) -> impl Iterator<Item = u64> {
        (0..=32).map(move |bits| {
            let mask = (1u64 << bits) - 1;
            (u64::from(hash) & mask) + mask
        })
    }

    /// The leaf bucket of a hash: the first bucket of the walk that is not split.
    pub fn leaf(&self, hash: u32) -> u64 {
        // The bitmap is finite, so a bucket past it ends the walk at the latest.
        Self::walk(hash).find(|&c| !self.is_split(c)).unwrap_or(u64::MAX)
    }

    /// The pages the legacy look-up scans (the seed, DroidFish, Steinar): every non-negative
    /// entry of the walk from `lower` on, up to and including the first bucket ≥ `upper`.
    pub fn legacy_pages(&self, hash: u32) -> impl Iterator<Item = (u64, i32)> + '_ {
        let mut done = false;
        Self::walk(hash).filter(|&c| c >= u64::from(self.lower)).map_while(move |c| {
            if done {
                return None;
            }
            done = c >= u64::from(self.upper);
            Some((c, self.page_of(c)))
        })
    }

    /// Buckets that are leaves of the tree reached from the root: (bucket, .cto entry).
    pub fn leaves(&self) -> Vec<(u64, i32)> {
        let mut leaves = Vec::new();
        let mut stack = vec![(0u64, 0u64)];
        while let Some((bucket, mask)) = stack.pop() {
            if self.is_split(bucket) && mask < u64::from(u32::MAX) {
                stack.push((bucket + 2 * mask + 2, 2 * mask + 1));
                stack.push((bucket + mask + 1, 2 * mask + 1));
            } else {
                leaves.push((bucket, self.page_of(bucket)));
            }
        }
        leaves.sort_unstable();
        leaves
    }
}

fn expect_u16(r: &mut ByteReader<'_>, value: u16, what: &str) -> Result<(), DataError> {
    let at = r.offset();
    let found = r.u16_be(what)?;
    if found != value {
        return Err(DataError::new(tabiya_io::Location::at(at), what).found(format!("{found:#06x}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(split_bits: &[u64], pages: Vec<i32>) -> BucketTree {
        let mut split = vec![0u8; 8];
        for &b in split_bits {
            split[(b / 8) as usize] |= 1 << (b % 8);
        }
        BucketTree { lower: 0, upper: 64, split, pages, cto_lower: 0 }
    }

    #[test]
    fn walk_is_the_dbm_trie() {
        let buckets: Vec<u64> = BucketTree::walk(0xEB7E_D3D7).take(9).collect();
        // Low hash bits 1,1,1,0,1,0,1,1: the children of c at mask n are c+n+1 and c+2n+2.
        assert_eq!(buckets, [0, 2, 6, 14, 22, 54, 86, 214, 470]);
    }

    #[test]
    fn leaf_and_leaves() {
        // Root split; bucket 2 split again: leaves 1, 4, 6.
        let t = tree(&[0, 2], vec![-1, 0, -1, -1, 1, -1, 2]);
        assert_eq!(t.leaf(0b00), 1);
        assert_eq!(t.leaf(0b01), 4);
        assert_eq!(t.leaf(0b11), 6);
        assert_eq!(t.leaves(), [(1, 0), (4, 1), (6, 2)]);
    }

    #[test]
    fn parse_rejects_short_files() {
        let p = Path::new("x");
        let ctb = [0, 12, 0, 1, 0, 0, 0, 0, 0, 0, 0, 8, 0xff];
        let cto = [0, 16, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5];
        let t = BucketTree::parse(&cto, p, &ctb, p).unwrap();
        assert_eq!((t.upper, t.pages.as_slice()), (8, [5].as_slice()));
        for len in 0..ctb.len() {
            assert!(BucketTree::parse(&cto, p, &ctb[..len], p).is_err());
        }
        for len in 0..cto.len() {
            assert!(BucketTree::parse(&cto[..len], p, &ctb, p).is_err());
        }
    }
}
