/** GitHub account names: letters, digits and single hyphens, not at either end, at most 39 characters. */
export const OWNER_PATTERN = '^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$';
/** GitHub repository names: letters, digits, `.`, `_` and `-`, at most 100 characters, not `.` or `..`. */
export const REPO_NAME_PATTERN = '^(?!\\.{1,2}$)[A-Za-z0-9._-]{1,100}$';

export { branchNameProblem } from '../git/branch-name.js';
