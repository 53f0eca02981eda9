/** Business constants and limits of the product. */
export const TOAST_MS = 5000;
export const TOAST_POPUP_MS = 3000;
export const SUMMARY_COPIED_MS = 3000;
export const SEARCH_SPINNER_MS = 1500;

export const BOT_NAME_MIN = 2;
export const BOT_NAME_MAX = 20;
export const BOT_NAME_DEBOUNCE_MS = 200;
export const SUGGESTION_DEBOUNCE_MS = 1000;
export const SUGGESTION_LIMIT = 10;

export const BAR_LABEL_MAX = 12;
export const DAY_MONTH_LABEL_MAX_DAYS = 90;

export const TIME_FILTER_DAYS = [7, 14, 90, 365] as const;
export const DEFAULT_TIME_FILTER_DAYS = 7;
export const THREAD_TIME_FILTER_DAYS = [1, 7, 14, 30] as const;
export const MEMBER_DETAIL_DAYS = 7;
export const TREND_SLOTS_HOURS = [2, 3, 4, 6, 8, 12] as const;
export const DEFAULT_TREND_SLOT_HOURS = 2;

export const OPERATORS = ['>', '<', '='] as const;
export const COMBINERS = ['AND', 'OR'] as const;

export const IMAGE_MAX_COUNT = 10;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;

export const SCHEDULE_MIN_AHEAD_MS = 15 * 60 * 1000;
export const SCHEDULE_MAX_AHEAD_MS = 30 * 24 * 60 * 60 * 1000;

export const DAY_CODES = ['mon', 'tue', 'wed', 'thurs', 'fri', 'sat', 'sun'] as const;
export const FREQUENCIES = ['Everyday', 'Weekly', 'onetime'] as const;
export const DEFAULT_ACK_MESSAGE = 'Your response has been recorded successfully';

export const FORM_DESCRIPTION_MAX = 125;
export const FORM_NAME_MAX = 24;
export const QUESTION_TITLE_MAX = 48;
export const OPTION_VALUE_MAX = 48;
export const MAX_OPTIONS = 5;

export const POLL_MAX_OPTIONS = 5;
export const POLL_DEFAULT_DURATION_MS = 24 * 60 * 60 * 1000;

export const USERS_COLUMN_MAX = 10;
export const TAGS_IN_CELL = 3;
export const BADGE_COLORS = ['blue', 'teal', 'grape', 'orange'] as const;

export const WORKFLOW_MAX_CARDS = 11;
export const WORKFLOW_TITLE_MAX = 75;
export const DELAY_MAX = { minutes: 43200, hours: 720, days: 30 } as const;
