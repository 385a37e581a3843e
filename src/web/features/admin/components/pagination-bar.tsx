// Moved to the shared data table; kept so screens written against this path still build.
export { PaginationBar } from '@/components/data-table/pagination-bar';
