export { auditRelease, type AuditReport } from "./audit-release.js";
export { auditTask, storedState, type AuditDomain, type GoldenAudit, type MutantAudit, type TaskAudit } from "./audit-task.js";
export { verifyIntegrity, type FileFailure, type IntegrityResult } from "./verify-integrity.js";
export { parseReleaseDomain, releaseDomainIds, type ReleaseContents, type ReleaseDomain } from "./parse-release.js";
export { sqliteProblem } from "./sqlite-file.js";
export { manifestRootHash } from "./root-hash.js";
export { listFolder, type FolderListing } from "./list-folder.js";
export { KnowledgeBaseFile, KnowledgeDocumentEntry, documentKey } from "./knowledge-document.js";
export * from "./release-layout.js";
