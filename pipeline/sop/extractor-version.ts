/** Version of the SOP extractors' output: part of `sources_hash`, so a changed extractor re-extracts. */
export const SOP_EXTRACTOR_VERSION = "sop-extract-1";
