/** What the import dialog checks before uploading (the server checks the content again). */
export const IMPORT_ACCEPT = '.xlsx,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel';

export const isExcelName = (name: string) => /\.(xlsx|xls)$/i.test(name);
