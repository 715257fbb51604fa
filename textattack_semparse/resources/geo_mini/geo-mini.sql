-- geo-mini: a small GeoQuery-schema database written by the textattack-semparse authors.
--
-- Schema: the seven tables of the GeoQuery database (Zelle & Mooney 1996), with the column
-- names and types of the text2sql-data release (Finegan-Dollak et al. 2018), so GeoQuery-style
-- SQL runs on it unchanged. Rows: 22 US states and a few of their cities, rivers, mountains,
-- lakes and extreme points, written from public facts (2020 US census figures rounded, total
-- areas in square kilometres, lengths in kilometres, elevations in metres). No row is copied
-- from the GeoQuery database. Borders are listed only between states that are in this file;
-- rivers list only the states of this file they traverse.

CREATE TABLE state (
  state_name text,
  population INTEGER DEFAULT NULL,
  area double DEFAULT NULL,
  country_name varchar(3) NOT NULL DEFAULT '',
  capital text,
  density double DEFAULT NULL
);

CREATE TABLE city (
  city_name text,
  population INTEGER DEFAULT NULL,
  country_name varchar(3) NOT NULL DEFAULT '',
  state_name text
);

CREATE TABLE river (
  river_name text,
  length INTEGER DEFAULT NULL,
  country_name varchar(3) NOT NULL DEFAULT '',
  traverse text
);

CREATE TABLE border_info (
  state_name text,
  border text
);

CREATE TABLE highlow (
  state_name text,
  highest_elevation INTEGER,
  lowest_point text,
  highest_point text,
  lowest_elevation INTEGER
);

CREATE TABLE lake (
  lake_name text,
  area double DEFAULT NULL,
  country_name varchar(3) NOT NULL DEFAULT '',
  state_name text
);

CREATE TABLE mountain (
  mountain_name text,
  mountain_altitude INTEGER DEFAULT NULL,
  country_name varchar(3) NOT NULL DEFAULT '',
  state_name text
);

-- state_name, population (2020 census, rounded to thousands), total area (km2), country, capital
INSERT INTO state (state_name, population, area, country_name, capital) VALUES
  ('arizona', 7152000, 295234, 'usa', 'phoenix'),
  ('arkansas', 3011000, 137732, 'usa', 'little rock'),
  ('california', 39538000, 423967, 'usa', 'sacramento'),
  ('colorado', 5774000, 269601, 'usa', 'denver'),
  ('connecticut', 3606000, 14357, 'usa', 'hartford'),
  ('florida', 21538000, 170312, 'usa', 'tallahassee'),
  ('illinois', 12813000, 149995, 'usa', 'springfield'),
  ('kansas', 2938000, 213100, 'usa', 'topeka'),
  ('louisiana', 4658000, 135659, 'usa', 'baton rouge'),
  ('massachusetts', 7030000, 27336, 'usa', 'boston'),
  ('minnesota', 5706000, 225163, 'usa', 'saint paul'),
  ('missouri', 6154000, 180540, 'usa', 'jefferson city'),
  ('nevada', 3105000, 286380, 'usa', 'carson city'),
  ('new jersey', 9289000, 22591, 'usa', 'trenton'),
  ('new mexico', 2118000, 314917, 'usa', 'santa fe'),
  ('new york', 20201000, 141297, 'usa', 'albany'),
  ('oklahoma', 3959000, 181037, 'usa', 'oklahoma city'),
  ('oregon', 4237000, 254799, 'usa', 'salem'),
  ('pennsylvania', 13003000, 119280, 'usa', 'harrisburg'),
  ('rhode island', 1097000, 4001, 'usa', 'providence'),
  ('texas', 29146000, 695662, 'usa', 'austin'),
  ('utah', 3272000, 219882, 'usa', 'salt lake city');

-- people per square kilometre
UPDATE state SET density = population / area;

-- city_name, population (2020 census, rounded to hundreds), country, state_name
INSERT INTO city (city_name, population, country_name, state_name) VALUES
  ('phoenix', 1608100, 'usa', 'arizona'),
  ('tucson', 542600, 'usa', 'arizona'),
  ('mesa', 504300, 'usa', 'arizona'),
  ('little rock', 202600, 'usa', 'arkansas'),
  ('fort smith', 89100, 'usa', 'arkansas'),
  ('los angeles', 3898700, 'usa', 'california'),
  ('san diego', 1386900, 'usa', 'california'),
  ('san jose', 1013200, 'usa', 'california'),
  ('san francisco', 874000, 'usa', 'california'),
  ('sacramento', 524900, 'usa', 'california'),
  ('denver', 715500, 'usa', 'colorado'),
  ('colorado springs', 479000, 'usa', 'colorado'),
  ('boulder', 108300, 'usa', 'colorado'),
  ('bridgeport', 148700, 'usa', 'connecticut'),
  ('new haven', 134000, 'usa', 'connecticut'),
  ('hartford', 121100, 'usa', 'connecticut'),
  ('jacksonville', 949600, 'usa', 'florida'),
  ('miami', 442200, 'usa', 'florida'),
  ('tampa', 385000, 'usa', 'florida'),
  ('orlando', 307600, 'usa', 'florida'),
  ('tallahassee', 196200, 'usa', 'florida'),
  ('chicago', 2746400, 'usa', 'illinois'),
  ('aurora', 180500, 'usa', 'illinois'),
  ('springfield', 114400, 'usa', 'illinois'),
  ('wichita', 397500, 'usa', 'kansas'),
  ('kansas city', 156600, 'usa', 'kansas'),
  ('topeka', 126600, 'usa', 'kansas'),
  ('new orleans', 384000, 'usa', 'louisiana'),
  ('baton rouge', 227500, 'usa', 'louisiana'),
  ('shreveport', 187600, 'usa', 'louisiana'),
  ('boston', 675600, 'usa', 'massachusetts'),
  ('worcester', 206500, 'usa', 'massachusetts'),
  ('springfield', 155900, 'usa', 'massachusetts'),
  ('minneapolis', 430000, 'usa', 'minnesota'),
  ('saint paul', 311500, 'usa', 'minnesota'),
  ('kansas city', 508100, 'usa', 'missouri'),
  ('st. louis', 301600, 'usa', 'missouri'),
  ('springfield', 169200, 'usa', 'missouri'),
  ('jefferson city', 43200, 'usa', 'missouri'),
  ('las vegas', 641900, 'usa', 'nevada'),
  ('reno', 264200, 'usa', 'nevada'),
  ('carson city', 58600, 'usa', 'nevada'),
  ('newark', 311500, 'usa', 'new jersey'),
  ('jersey city', 292400, 'usa', 'new jersey'),
  ('trenton', 90900, 'usa', 'new jersey'),
  ('albuquerque', 564600, 'usa', 'new mexico'),
  ('las cruces', 111400, 'usa', 'new mexico'),
  ('santa fe', 87500, 'usa', 'new mexico'),
  ('new york', 8804200, 'usa', 'new york'),
  ('buffalo', 278300, 'usa', 'new york'),
  ('rochester', 211300, 'usa', 'new york'),
  ('albany', 99200, 'usa', 'new york'),
  ('oklahoma city', 681100, 'usa', 'oklahoma'),
  ('tulsa', 413100, 'usa', 'oklahoma'),
  ('portland', 652500, 'usa', 'oregon'),
  ('eugene', 176700, 'usa', 'oregon'),
  ('salem', 175500, 'usa', 'oregon'),
  ('philadelphia', 1603800, 'usa', 'pennsylvania'),
  ('pittsburgh', 303000, 'usa', 'pennsylvania'),
  ('harrisburg', 50100, 'usa', 'pennsylvania'),
  ('providence', 190900, 'usa', 'rhode island'),
  ('warwick', 82800, 'usa', 'rhode island'),
  ('houston', 2304600, 'usa', 'texas'),
  ('san antonio', 1434600, 'usa', 'texas'),
  ('dallas', 1304400, 'usa', 'texas'),
  ('austin', 961900, 'usa', 'texas'),
  ('fort worth', 918900, 'usa', 'texas'),
  ('el paso', 678800, 'usa', 'texas'),
  ('salt lake city', 199700, 'usa', 'utah'),
  ('provo', 115200, 'usa', 'utah');

-- river_name, length (km), country, one row per state of this file the river traverses
INSERT INTO river (river_name, length, country_name, traverse) VALUES
  ('missouri', 3767, 'usa', 'kansas'),
  ('missouri', 3767, 'usa', 'missouri'),
  ('mississippi', 3730, 'usa', 'minnesota'),
  ('mississippi', 3730, 'usa', 'illinois'),
  ('mississippi', 3730, 'usa', 'missouri'),
  ('mississippi', 3730, 'usa', 'arkansas'),
  ('mississippi', 3730, 'usa', 'louisiana'),
  ('rio grande', 3051, 'usa', 'colorado'),
  ('rio grande', 3051, 'usa', 'new mexico'),
  ('rio grande', 3051, 'usa', 'texas'),
  ('arkansas', 2364, 'usa', 'colorado'),
  ('arkansas', 2364, 'usa', 'kansas'),
  ('arkansas', 2364, 'usa', 'oklahoma'),
  ('arkansas', 2364, 'usa', 'arkansas'),
  ('colorado', 2330, 'usa', 'colorado'),
  ('colorado', 2330, 'usa', 'utah'),
  ('colorado', 2330, 'usa', 'arizona'),
  ('colorado', 2330, 'usa', 'nevada'),
  ('colorado', 2330, 'usa', 'california'),
  ('red', 2190, 'usa', 'texas'),
  ('red', 2190, 'usa', 'oklahoma'),
  ('red', 2190, 'usa', 'arkansas'),
  ('red', 2190, 'usa', 'louisiana'),
  ('columbia', 2000, 'usa', 'oregon'),
  ('ohio', 1579, 'usa', 'pennsylvania'),
  ('ohio', 1579, 'usa', 'illinois'),
  ('pecos', 1490, 'usa', 'new mexico'),
  ('pecos', 1490, 'usa', 'texas'),
  ('canadian', 1458, 'usa', 'colorado'),
  ('canadian', 1458, 'usa', 'new mexico'),
  ('canadian', 1458, 'usa', 'texas'),
  ('canadian', 1458, 'usa', 'oklahoma'),
  ('brazos', 1352, 'usa', 'texas'),
  ('gila', 1044, 'usa', 'new mexico'),
  ('gila', 1044, 'usa', 'arizona'),
  ('sabine', 824, 'usa', 'texas'),
  ('sabine', 824, 'usa', 'louisiana'),
  ('sacramento', 719, 'usa', 'california'),
  ('connecticut', 653, 'usa', 'massachusetts'),
  ('connecticut', 653, 'usa', 'connecticut'),
  ('humboldt', 531, 'usa', 'nevada'),
  ('hudson', 507, 'usa', 'new york'),
  ('hudson', 507, 'usa', 'new jersey'),
  ('delaware', 484, 'usa', 'new york'),
  ('delaware', 484, 'usa', 'pennsylvania'),
  ('delaware', 484, 'usa', 'new jersey'),
  ('illinois', 439, 'usa', 'illinois');

-- both directions of every land border between two states of this file
INSERT INTO border_info (state_name, border) VALUES
  ('arizona', 'california'), ('arizona', 'nevada'), ('arizona', 'new mexico'), ('arizona', 'utah'),
  ('arkansas', 'louisiana'), ('arkansas', 'missouri'), ('arkansas', 'oklahoma'), ('arkansas', 'texas'),
  ('california', 'arizona'), ('california', 'nevada'), ('california', 'oregon'),
  ('colorado', 'kansas'), ('colorado', 'new mexico'), ('colorado', 'oklahoma'), ('colorado', 'utah'),
  ('connecticut', 'massachusetts'), ('connecticut', 'new york'), ('connecticut', 'rhode island'),
  ('illinois', 'missouri'),
  ('kansas', 'colorado'), ('kansas', 'missouri'), ('kansas', 'oklahoma'),
  ('louisiana', 'arkansas'), ('louisiana', 'texas'),
  ('massachusetts', 'connecticut'), ('massachusetts', 'new york'), ('massachusetts', 'rhode island'),
  ('missouri', 'arkansas'), ('missouri', 'illinois'), ('missouri', 'kansas'), ('missouri', 'oklahoma'),
  ('nevada', 'arizona'), ('nevada', 'california'), ('nevada', 'oregon'), ('nevada', 'utah'),
  ('new jersey', 'new york'), ('new jersey', 'pennsylvania'),
  ('new mexico', 'arizona'), ('new mexico', 'colorado'), ('new mexico', 'oklahoma'), ('new mexico', 'texas'),
  ('new york', 'connecticut'), ('new york', 'massachusetts'), ('new york', 'new jersey'), ('new york', 'pennsylvania'),
  ('oklahoma', 'arkansas'), ('oklahoma', 'colorado'), ('oklahoma', 'kansas'), ('oklahoma', 'missouri'),
  ('oklahoma', 'new mexico'), ('oklahoma', 'texas'),
  ('oregon', 'california'), ('oregon', 'nevada'),
  ('pennsylvania', 'new jersey'), ('pennsylvania', 'new york'),
  ('rhode island', 'connecticut'), ('rhode island', 'massachusetts'),
  ('texas', 'arkansas'), ('texas', 'louisiana'), ('texas', 'new mexico'), ('texas', 'oklahoma'),
  ('utah', 'arizona'), ('utah', 'colorado'), ('utah', 'nevada');

-- state_name, highest elevation (m), lowest point, highest point, lowest elevation (m)
INSERT INTO highlow (state_name, highest_elevation, lowest_point, highest_point, lowest_elevation) VALUES
  ('arizona', 3851, 'colorado river', 'humphreys peak', 22),
  ('arkansas', 839, 'ouachita river', 'mount magazine', 17),
  ('california', 4421, 'death valley', 'mount whitney', -86),
  ('colorado', 4401, 'arikaree river', 'mount elbert', 1011),
  ('connecticut', 725, 'long island sound', 'mount frissell', 0),
  ('florida', 105, 'atlantic ocean', 'britton hill', 0),
  ('illinois', 376, 'mississippi river', 'charles mound', 85),
  ('kansas', 1232, 'verdigris river', 'mount sunflower', 207),
  ('louisiana', 163, 'new orleans', 'driskill mountain', -2),
  ('massachusetts', 1064, 'atlantic ocean', 'mount greylock', 0),
  ('minnesota', 701, 'lake superior', 'eagle mountain', 183),
  ('missouri', 540, 'st. francis river', 'taum sauk mountain', 70),
  ('nevada', 4007, 'colorado river', 'boundary peak', 148),
  ('new jersey', 550, 'atlantic ocean', 'high point', 0),
  ('new mexico', 4011, 'red bluff reservoir', 'wheeler peak', 866),
  ('new york', 1629, 'atlantic ocean', 'mount marcy', 0),
  ('oklahoma', 1516, 'little river', 'black mesa', 87),
  ('oregon', 3429, 'pacific ocean', 'mount hood', 0),
  ('pennsylvania', 979, 'delaware river', 'mount davis', 0),
  ('rhode island', 247, 'atlantic ocean', 'jerimoth hill', 0),
  ('texas', 2667, 'gulf of mexico', 'guadalupe peak', 0),
  ('utah', 4123, 'beaver dam wash', 'kings peak', 610);

-- lake_name, area of the whole lake (km2), country, one row per state of this file on its shore
INSERT INTO lake (lake_name, area, country_name, state_name) VALUES
  ('superior', 82100, 'usa', 'minnesota'),
  ('michigan', 58000, 'usa', 'illinois'),
  ('great salt', 4400, 'usa', 'utah'),
  ('okeechobee', 1890, 'usa', 'florida'),
  ('pontchartrain', 1630, 'usa', 'louisiana'),
  ('champlain', 1269, 'usa', 'new york'),
  ('powell', 653, 'usa', 'utah'),
  ('powell', 653, 'usa', 'arizona'),
  ('mead', 640, 'usa', 'nevada'),
  ('mead', 640, 'usa', 'arizona'),
  ('tahoe', 490, 'usa', 'california'),
  ('tahoe', 490, 'usa', 'nevada'),
  ('crater', 53, 'usa', 'oregon');

-- mountain_name, altitude (m), country, state_name
INSERT INTO mountain (mountain_name, mountain_altitude, country_name, state_name) VALUES
  ('whitney', 4421, 'usa', 'california'),
  ('elbert', 4401, 'usa', 'colorado'),
  ('massive', 4398, 'usa', 'colorado'),
  ('shasta', 4322, 'usa', 'california'),
  ('pikes peak', 4302, 'usa', 'colorado'),
  ('kings peak', 4123, 'usa', 'utah'),
  ('wheeler peak', 4011, 'usa', 'new mexico'),
  ('boundary peak', 4007, 'usa', 'nevada'),
  ('humphreys peak', 3851, 'usa', 'arizona'),
  ('hood', 3429, 'usa', 'oregon'),
  ('guadalupe peak', 2667, 'usa', 'texas'),
  ('marcy', 1629, 'usa', 'new york');
