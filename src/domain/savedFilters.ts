// Limits of saved list filters (常用筛选), shared by the form and the server.
export const MAX_SAVED_FILTERS = 20;
export const SAVED_FILTER_NAME_MAX = 20;
/** A filter is a handful of values; anything larger is not a filter someone picked by hand. */
export const SAVED_FILTER_MAX_BYTES = 2048;
